#!/usr/bin/env bash
# Programs below the sandbox that change user, and execs ld.so runs
# without LD_PRELOAD (issue 25 #5).  Hand-written policy: each child may
# read cfile, its parent's domain also efile (or pfile).
#  user   as root, a service-like setuser becomes nobody, closes every
#         descriptor above 2 (the table's memfd too) and runs child.sh
#         with an environment of its own (execle, as cron does): the
#         preload puts the sandbox back in it, the child finds the table's
#         copy although it is nobody now, and narrows: efile EACCES;
#  title  the same, after setuser overwrote its environment's strings (as
#         sshd's setproctitle() does): the preload gives the child its own
#         copy of the value, and the child narrows;
#  eff    as root, setuser changes only its effective ids (ruid 0, euid
#         nobody): a secure exec, ld.so ignores LD_PRELOAD; reported as
#         `preload`, the child keeps setuser's bound (reads efile), and
#         with --strict the exec fails with EPERM;
#  suid   as nobody, a set-user-ID root program: no_new_privs makes the
#         kernel ignore the bit, the exec is not secure, and the program
#         narrows (pfile EACCES), nothing reported; the sandbox, which
#         cannot do without no_new_privs (no CAP_SYS_ADMIN), says once
#         that the table's set-id programs run without their privilege
#         (as root it does not: docs/SANDBOX.md "Set-id programs");
#  fcap   as nobody, a program with file capabilities (cap_net_raw+ep): a
#         secure exec even under no_new_privs; reported as `preload`, it
#         keeps its parent's bound (reads pfile); --strict refuses it.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

[ "$(id -u)" = 0 ] || hm_skip "needs root (to change user, set-user-ID, setcap)"
sbx_setup
hm_need setcap
sbx_cc setuser
hm_e2e_install try_open "$bin/try_suid"
hm_e2e_install try_open "$bin/try_fcap"
chown root:root "$bin/try_suid" "$bin/try_fcap"
chmod 4755 "$bin/try_suid"
setcap cap_net_raw+ep "$bin/try_fcap" || hm_fail "setcap failed"
for f in pfile cfile efile; do echo "$f" >"$w/$f"; done
chmod 644 "$w/pfile" "$w/cfile" "$w/efile"
bash=$(readlink -f /bin/bash)

cat >"$w/parent.sh" <<'EOS'
#!/bin/bash
w=${0%/*}
bin=$1 mode=$2
case $mode in
user)	"$bin/setuser" --env-i 65534 65534 "$w/child.sh" "$mode" ;;
title)	"$bin/setuser" --env-i --title 65534 65534 "$w/child.sh" "$mode" ;;
eff)	"$bin/setuser" --effective 65534 65534 "$w/child.sh" "$mode" ;;
suid)	"$bin/try_suid" "$w/cfile" "$w/pfile" ;;
fcap)	"$bin/try_fcap" "$w/cfile" "$w/pfile" ;;
esac
echo "parent: child exited $?"
EOS
sbx_try_read_lib
cat >"$w/child.sh" <<'EOS'
#!/bin/bash
w=${0%/*}
. "$w/try_read.sh"
n=${HISTMAC_SANDBOX%%:*}
[ -n "$n" ] && [ -e "/proc/self/fd/$n" ] && t=open || t=closed
echo "$1 child: uid $UID, table fd $t"
try_read "$1 child" cfile efile
EOS
chmod 755 "$w/parent.sh" "$w/child.sh"

P="<kernel> $w/parent.sh"
S="$P $bin/setuser"
echo "initialize_domain $w/parent.sh from any" >"$pol/exception_policy.conf"
libs=$(sbx_libs "$bash" "$bin/setuser" "$bin/try_suid")
cat >"$pol/domain_policy.conf" <<EOF
$P
$libs
file read $w/parent.sh
file read $w/pfile
file execute $bin/setuser
file execute $bin/try_suid
file execute $bin/try_fcap

$S
$libs
file read $w/efile
file execute $w/child.sh

$S $w/child.sh
$libs
file read $w/child.sh
file read $w/try_read.sh
file read $w/cfile

$P $bin/try_suid
$libs
file read $w/cfile

$P $bin/try_fcap
$libs
file read $w/cfile
EOF
sbx_policy_done

as=			# "" (root) or as_nobody
run() {	# OUT [--strict] MODE
	local out=$1 rc=0
	shift
	$as "$bin/histmac" sandbox --stats -p "$pol" "${@:1:$#-1}" -- \
		"$w/parent.sh" "$bin" "${!#}" >"$out" 2>"$out.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$out" "$out.err" >&2; hm_fail "histmac sandbox exited $rc"; }
}
lost() {	# FILE PROGRAM WORDS: the sandbox said it once
	sbx_once "$1" "^histmac sandbox: $2 (pid [0-9]*) $3"
}
none() {	# FILE: nothing lost
	sbx_expect "$1.err" "sandbox: programs that could not narrow: 0 .*"
}

run "$HM_TMP/user" user
sbx_expect "$HM_TMP/user" "user child: uid 65534, table fd closed"
sbx_expect "$HM_TMP/user" "user child allowed cfile"
sbx_expect "$HM_TMP/user" "user child denied efile: Permission denied"
sbx_expect "$HM_TMP/user" "parent: child exited 0"
sbx_expect "$HM_TMP/user.err" "sandbox: execs whose environment lacked the preload and got it back: 1"
none "$HM_TMP/user"
run "$HM_TMP/user-strict" --strict user
sbx_expect "$HM_TMP/user-strict" "user child denied efile: Permission denied"
none "$HM_TMP/user-strict"
hm_ok "user: a child that became nobody, lost every descriptor and its environment finds its table and narrows (also --strict)"

run "$HM_TMP/title" --strict title
sbx_expect "$HM_TMP/title" "title child allowed cfile"
sbx_expect "$HM_TMP/title" "title child denied efile: Permission denied"
none "$HM_TMP/title"
hm_ok "title: a program that wrote over its environment's strings still gives its child the sandbox's value, and the child narrows"

run "$HM_TMP/eff" eff
sbx_expect "$HM_TMP/eff" "eff child allowed efile"
lost "$HM_TMP/eff" "$w/child.sh" "keeps its parent's bound: executed without the preload"
run "$HM_TMP/eff-strict" --strict eff
grep -q "eff child" "$HM_TMP/eff-strict" &&
	{ cat "$HM_TMP/eff-strict" >&2; hm_fail "eff --strict: the child ran"; }
sbx_expect "$HM_TMP/eff-strict" "parent: child exited 126"
lost "$HM_TMP/eff-strict" "$w/child.sh" "refused (--strict), it cannot narrow: executed without the preload"
hm_ok "eff: an exec with real and effective ids apart (secure: no LD_PRELOAD) is reported, and refused by --strict"

as=as_nobody
run "$HM_TMP/suid" suid
sbx_expect "$HM_TMP/suid" "allowed $w/cfile"
sbx_expect "$HM_TMP/suid" "denied $w/pfile: Permission denied"
none "$HM_TMP/suid"
sbx_expect "$HM_TMP/suid.err" "histmac: 2 execs of set-id programs (the first: $bin/try_[a-z]*, by $P) run without their privilege: no_new_privs is set (restricting without it needs CAP_SYS_ADMIN)"
! grep -q 'without their privilege' "$HM_TMP/user.err" ||
	hm_fail "the root sandbox said the set-id programs run without their privilege"
hm_ok "suid: a set-user-ID program under no_new_privs keeps the preload and narrows; the unprivileged sandbox said its set-id programs lose their privilege"

run "$HM_TMP/fcap" fcap
sbx_expect "$HM_TMP/fcap" "allowed $w/pfile"
lost "$HM_TMP/fcap" "$bin/try_fcap" "keeps its parent's bound: executed without the preload"
run "$HM_TMP/fcap-strict" --strict fcap
grep -q "allowed" "$HM_TMP/fcap-strict" &&
	{ cat "$HM_TMP/fcap-strict" >&2; hm_fail "fcap --strict: the program ran"; }
sbx_expect "$HM_TMP/fcap-strict" "parent: child exited 126"
lost "$HM_TMP/fcap-strict" "$bin/try_fcap" "refused (--strict), it cannot narrow: executed without the preload"
hm_ok "fcap: a program with file capabilities (secure exec) is reported, and refused by --strict"
