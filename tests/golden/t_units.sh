#!/bin/bash
# t_units.sh - the systemd units as installed: `systemd-analyze verify`
# is clean (directives, ExecStart, the man pages of Documentation=), and
# the enforcer unit keeps its promises: Type=notify with a watchdog, a
# restart policy that ends, no mount namespace (marks on mounts), started
# early in boot.
set -eu
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: t_units: $*" >&2; exit 1; }
command -v systemd-analyze >/dev/null || fail "systemd-analyze missing"
dist=$HM_BUILD/dist

# the man pages as they are installed, for Documentation=man:...
mkdir -p "$tmp/man/man1" "$tmp/man/man5"
cp "$dist"/man/*.1 "$HM_SRC"/man/*.1 "$tmp/man/man1/"
cp "$HM_SRC"/man/*.5 "$tmp/man/man5/"
bindir=$(sed -n 's|^ExecStart=\(.*\)/histmac .*|\1|p' "$dist/histmac-learn.service")
[ -n "$bindir" ] || fail "no ExecStart in histmac-learn.service"
for u in histmac-learn histmac-enforce; do
	# the binary under test stands in for the installed one
	sed "s|$bindir/histmac|$HISTMAC|" "$dist/$u.service" >"$tmp/$u.service"
done
MANPATH=$tmp/man systemd-analyze verify "$tmp"/histmac-learn.service \
	"$tmp"/histmac-enforce.service >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out" >&2; fail "systemd-analyze verify"; }
[ ! -s "$tmp/out" ] || { cat "$tmp/out" >&2; fail "systemd-analyze verify warns"; }

e=$tmp/histmac-enforce.service
for want in Type=notify WatchdogSec=30 Restart=on-failure StartLimitBurst=3 \
	    NoNewPrivileges=yes ExecReload; do
	grep -q "^$want" "$e" || fail "enforce unit lacks $want"
done
! grep -Eq '^(ProtectSystem|ProtectHome|PrivateTmp|PrivateDevices|ProtectKernelTunables)=' "$e" ||
	fail "enforce unit would run in its own mount namespace"
# Early boot (docs/PRODUCTION.md "Early boot"): marked before sysinit.target,
# so logins and services start under it.  A unit it is ordered after must
# not itself come after sysinit.target: a .service or .socket with the
# default dependencies does (ordering cycle, which systemd breaks by
# dropping a job), so each must have DefaultDependencies=no.
for want in DefaultDependencies=no WantedBy=sysinit.target; do
	grep -qx "$want" "$e" || fail "enforce unit lacks $want"
done
val() { sed -n "s/^$1=//p" "$e" | tr ' ' '\n'; }
val Before | grep -qx sysinit.target || fail "enforce unit not before sysinit.target"
val After | grep -qx local-fs.target || fail "enforce unit not after local-fs.target"
for u in $(val After); do
	case $u in
	sysinit.target|basic.target|multi-user.target|network*.target)
		fail "enforce unit after $u: not early" ;;
	*.service|*.socket)
		f=$(systemctl show -P FragmentPath "$u" 2>/dev/null || true)
		[ -f "$f" ] || f=/lib/systemd/system/$u
		[ -f "$f" ] || continue		# not installed here (auditd)
		grep -qx 'DefaultDependencies=no' "$f" ||
			fail "enforce unit after $u, which comes after sysinit.target" ;;
	esac
done
grep -q '^ProtectSystem=strict' "$tmp/histmac-learn.service" ||
	fail "learn unit not read-only"
echo "ok t_units"
