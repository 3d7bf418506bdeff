#!/usr/bin/env bash
# Debian's `service` under the sandbox (issue 25 #5): `service NAME start`
# runs the init script through `exec env -i LANG=... PATH=...
# /etc/init.d/NAME start`, which used to drop the preload, so the script
# and all below it kept env's bound (and --strict refused the exec).
# Now env's exec wrapper puts the sandbox back in the environment: as
# root, with the real /usr/sbin/service and a small init script of this
# test's, the script narrows to its own domain (reads cfile; efile, which
# env's domain may read, fails with EACCES), with and without --strict,
# nothing is reported lost, and --stats counts one restored environment.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

[ "$(id -u)" = 0 ] || hm_skip "needs root (an init script in /etc/init.d)"
[ -x /usr/sbin/service ] || hm_skip "no /usr/sbin/service"
[ ! -d /run/systemd/system ] || hm_skip "systemd runs here: service would call systemctl"
sbx_setup
for f in cfile efile; do echo "$f" >"$w/$f"; done
chmod 644 "$w/cfile" "$w/efile"
sbx_try_read_lib
name=hm-e2e-sbx-$$
init=/etc/init.d/$name
[ ! -e "$init" ] || hm_fail "$init exists"
hm_on_exit "rm -f '$init'"
cat >"$init" <<EOS
#!/bin/bash
w=$w
. "\$w/try_read.sh"
echo "init script: \$1, HISTMAC_SANDBOX \${HISTMAC_SANDBOX:+set}"
try_read init cfile efile
EOS
chmod 755 "$init"
sh=$(readlink -f /bin/sh)
bash=$(readlink -f /bin/bash)
envp=$(readlink -f /usr/bin/env)
base=$(readlink -f /usr/bin/basename)

SV="<kernel> /usr/sbin/service"
E="$SV $envp"
libs=$(sbx_libs "$sh" "$bash" "$envp" "$base")
echo "initialize_domain /usr/sbin/service from any" >"$pol/exception_policy.conf"
cat >"$pol/domain_policy.conf" <<EOF
$SV
$libs
file read /usr/sbin/service
file execute $base
file execute $envp

$SV $base
$libs

$E
$libs
file read $w/efile
file execute $init

$E $init
$libs
file read $init
file read $w/try_read.sh
file read $w/cfile
EOF
sbx_policy_done

run() {	# OUT [--strict]
	local out=$1 rc=0
	shift
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$bin/histmac" sandbox --stats \
		-p "$pol" "$@" -- /usr/sbin/service "$name" start \
		>"$out" 2>"$out.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$out" "$out.err" >&2; hm_fail "histmac sandbox exited $rc"; }
	sbx_expect "$out" "init script: start, HISTMAC_SANDBOX set"
	sbx_expect "$out" "init allowed cfile"
	sbx_expect "$out" "init denied efile: Permission denied"
	sbx_expect "$out.err" "sandbox: programs that could not narrow: 0 .*; execs refused (--strict): 0"
	sbx_expect "$out.err" "sandbox: execs whose environment lacked the preload and got it back: 1"
}

run "$HM_TMP/service"
hm_ok "service NAME start: the init script after env -i narrows to its own domain"
run "$HM_TMP/service-strict" --strict
hm_ok "service NAME start, --strict: the init script starts and narrows"
