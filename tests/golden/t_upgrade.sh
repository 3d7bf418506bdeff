#!/usr/bin/env bash
# t_upgrade.sh - what changed with a package upgrade.  Two versions of a
# small package are built here (dpkg-deb -b) owning the program the
# recorded logs in tests/data run (/tmp/hm-e2e.XquIVi/workload), and
# installed with dpkg into an image (dpkg --root); the logs are learned
# against that image (--resolve-root), as logs from that host would be.
#   1. version 1.0 installed: learn exec.log -> the domain is stamped 1.0
#   2. upgrade to 2.0: check file.log against that policy -> the new
#      accesses are violations marked "upgraded since learned 1.0 -> 2.0"
#   3. learn file.log into a copy -> stamped 2.0; diff groups what it
#      added under "# package hm-workload 1.0 -> 2.0"
# Needs dpkg and dpkg-deb, and root (dpkg unpacks root-owned files).
. "$(dirname "$0")/lib.sh"
data=$HM_SRC/tests/data
prog=/tmp/hm-e2e.XquIVi/workload
dom="<kernel> $prog"

for t in dpkg dpkg-deb; do
	command -v "$t" >/dev/null || die "$t missing (scripts/deps.sh test)"
done
[ "$(id -u)" = 0 ] || { echo "t_upgrade: needs root for dpkg --root, skipped" >&2; exit 77; }

deb() {	# VERSION: build hm-workload_VERSION.deb
	local d=$tmp/pkg-$1
	mkdir -p "$d/DEBIAN" "$d$(dirname "$prog")"
	printf '#!/bin/sh\necho %s\n' "$1" >"$d$prog"
	chmod 755 "$d$prog"
	printf 'Package: hm-workload\nVersion: %s\nArchitecture: all\nMaintainer: histmac tests <tests@example.org>\nDescription: a program the recorded logs run\n' \
		"$1" >"$d/DEBIAN/control"
	dpkg-deb --root-owner-group -b "$d" "$tmp/hm-workload_$1.deb" >/dev/null ||
		die "dpkg-deb -b $1"
}
root=$tmp/root
install() {	# VERSION
	dpkg --root="$root" --force-not-root --force-script-chrootless \
		-i "$tmp/hm-workload_$1.deb" >"$tmp/dpkg.out" 2>&1 ||
		{ cat "$tmp/dpkg.out" >&2; die "dpkg -i $1"; }
}
deb 1.0
deb 2.0
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
install 1.0

learn() {	# DIR LOG
	"$HISTMAC" learn -q --resolve-root "$root" -p "$1" -i "$2" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; die "learn $2 exited $?"; }
}
package_of() {	# DIR: the package line of the workload's domain
	awk -v d="$dom" '/^</ { cur = $0 } cur == d && /^package / { print $2, $3 }' \
		"$1/histmac_entries.conf"
}
learn "$tmp/v1" "$data/exec.log"
[ "$(package_of "$tmp/v1")" = "hm-workload 1.0" ] ||
	die "learned with 1.0 installed, stamped '$(package_of "$tmp/v1")'"

install 2.0
expect_rc 1 "$HISTMAC" check --resolve-root "$root" -p "$tmp/v1" -i "$data/file.log"
awk -v d="$dom" '$0 == d { getline; print; exit }' "$tmp/out" >"$tmp/mark"
grep -qx '# upgraded since learned: package hm-workload 1.0 -> 2.0' "$tmp/mark" ||
	fail "check does not mark the violations: $(head -20 "$tmp/out")"
expect_rc 1 "$HISTMAC" check --resolve-root "$root" -p "$tmp/v1" -i "$data/file.log" -f json
jq -e --arg d "$dom" '[.violations[] | select(.domain == $d)] | length > 0 and
	all(.upgraded == {"package": "hm-workload", "learned": "1.0", "now": "2.0"})' \
	"$tmp/out" >/dev/null || fail "JSON violations lack .upgraded"
jq -e --arg d "$dom" 'all(.violations[] | select(.domain != $d); .upgraded == null)' \
	"$tmp/out" >/dev/null || fail "JSON: other domains marked upgraded"

cp -r "$tmp/v1" "$tmp/v2"
learn "$tmp/v2" "$data/file.log"
[ "$(package_of "$tmp/v2")" = "hm-workload 2.0" ] ||
	fail "learned with 2.0 installed, stamped '$(package_of "$tmp/v2")'"
expect_rc 1 "$HISTMAC" diff "$tmp/v1" "$tmp/v2"
# The block: from the package line to the next package line or the end.
awk '/^# package hm-workload 1.0 -> 2.0$/ { on = 1; next } /^# package / { on = 0 } on' \
	"$tmp/out" >"$tmp/block"
grep -qx "$dom" "$tmp/block" || fail "diff: the domain is not under its package: $(cat "$tmp/out")"
added=$(grep -c '^+file ' "$tmp/block")
[ "$added" -gt 3 ] || fail "diff: $added additions under the package"
[ "$(grep -c '^[+-]file ' "$tmp/out")" = "$added" ] ||
	fail "diff: changes outside the package's block"
finish t_upgrade
