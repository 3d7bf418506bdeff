#!/usr/bin/env bash
# openssh-server under `histmac sandbox` with its learned policy (issue
# 25's last line): sshd learns one period as t_service_ssh.sh does
# (started by its init script; commands, scp both ways, sftp, a shell on
# a pty; a reload and a restart; `patternize --apply` as
# docs/PRODUCTION.md says), then runs in the foreground as COMMAND of
# `histmac sandbox` in its learned root domain (service/sandbox/ssh.sh):
# the rounds of another period (other names and data) are served through
# a reload, the results of one pass of each kind are compared with what
# was sent, reading the user's own private key through a session fails
# with EACCES (the file's mode allows it) and `check` of that period
# lists it as a violation Landlock enforced, the kernel refused nothing
# else but two known gaps, under --strict every program narrowed (none
# reported), and the sessions narrowed to their own domains: a session's
# shell may not read sshd's configuration, which sshd's domain reads.
# The sandbox's counts (--stats) are printed.
set -eu
. "$HM_SRC/tests/e2e/lib.sh"
. "$HM_SRC/tests/e2e/service_lib.sh"
. "$HM_SRC/tests/e2e/service/ssh/begin.sh"

ssh_begin runuser
key=$S/home/.ssh/id_ed25519

# The build's histmac, beside its preload (as t_service_sandbox.sh).
export SBX=$HISTMAC SBX_OUT=$HM_TMP/sbx POL SBX_STRICT=--strict
mkdir -p "$SBX_OUT"
. "$HM_SRC/tests/e2e/service/sandbox/sbx.sh"
svc_cleanup() {
	sbx_kill_all
	# sshd as found: not running (the test skips otherwise)
	/etc/init.d/ssh stop >/dev/null 2>&1
}
hm_on_exit svc_cleanup

# Period 1: learn as t_service_ssh.sh does.
cycle=". '$HM_SRC/tests/e2e/service/ssh/cycle.sh'"
hm_svc_learn_period "$cycle; period"
# sshd a root domain, as SANDBOX.md advises: started by the init script
# while learning, by the sandbox now, the tracker and the sandbox name it
# alike (PRODUCTION.md section 3).
hm_svc_root_domain /usr/sbin/sshd

# The control: the user may read its key by the file's mode.
runuser -u hm-ssh -- cat "$key" >/dev/null ||
	hm_fail "hm-ssh cannot read its own key unconfined"

# Period 2: the same kinds of work, sshd under the sandbox.
hm_svc_run 4252 "set -e; $cycle; . '$HM_SRC/tests/e2e/service/sandbox/ssh.sh'; sandboxed" \
	"$HM_TMP/p2.log"
echo "--- the sandbox's stderr" >&2
cat "$SBX_OUT/sshd.err" >&2
hm_ok "the sandboxed sshd served every round (commands, scp both ways, sftp, a pty shell) through a reload"
# its sessions too are gone once it stopped: the next test finds no sshd
! hm_running sshd ||
	hm_fail "an sshd outlived the sandboxed one: $(pgrep -a -x sshd)"

o=$SBX_OUT/served
grep -q ' \.profile$' "$o.cmd" || hm_fail "the command's output lacks wc's line: $(cat "$o.cmd")"
cmp -s "$o.orig" "$o.scp" || hm_fail "the file copied up and back by scp differs"
cmp -s "$o.orig" "$o.sftp" || hm_fail "the file got by sftp differs"
up=$(head -n 1 "$o.orig" | tr a-z A-Z)
grep -qF "$up" "$o.pty" || hm_fail "the pty shell did not print '$up': $(cat "$o.pty")"
hm_ok "served: a command's output, scp up and back, sftp get, a pty shell's output"

grep -q 'Permission denied' "$SBX_OUT/attack.err" && ! grep -q 'PRIVATE KEY' "$SBX_OUT/attack.out" ||
	hm_fail "the read of the key through a session did not fail with EACCES: $(cat "$SBX_OUT/attack.out" "$SBX_OUT/attack.err")"
hm_ok "the read of the user's private key was refused: $(head -n 1 "$SBX_OUT/attack.err")"

hm_svc_check "$HM_TMP/p2.log" p2
hm_svc_reported p2 "^file read ${key//./\\.}\$" "the refused read of the key"
hm_svc_enforced p2 "file read $key" "the read of the key"

# No program below the sandbox could not narrow (sshd's exec of itself
# is an edge to its own domain, pam_motd's /bin/sh is found as the policy
# names it, /usr/bin/sh, and each session's environment gets the preload
# back), and so the sessions are in their own domains: a session's shell
# may not read sshd's configuration, which only sshd's domain reads.
sed -n 's/^histmac sandbox: \(.*\) (pid [0-9]*) [^:]*: \(.*\)$/\1: \2/p' \
	"$SBX_OUT/sshd.err" | sort -u >"$HM_TMP/lost"
[ ! -s "$HM_TMP/lost" ] || hm_fail "programs below the sandbox could not narrow: $(cat "$HM_TMP/lost")"
cfg=/etc/ssh/sshd_config
grep -q 'Permission denied' "$SBX_OUT/narrow.err" ||
	hm_fail "a session's shell read $cfg: the session did not narrow: $(cat "$SBX_OUT/narrow.out" "$SBX_OUT/narrow.err")"
hm_svc_enforced p2 "file read $cfg" "the session shell's read of $cfg" \
	'<kernel> /usr/sbin/sshd /usr/bin/bash'
hm_ok "sessions narrowed to their own domains: a session's shell may not read $cfg (sshd's domain reads it; EACCES, enforced)"
narrow=$cfg

# What check lists in sshd's domains (the rest is the test's shell)
hm_svc_refused_only p2 '^<kernel> /usr/sbin/sshd( |$)' "sshd's domains" \
	"file read $key" "file read $narrow"

# Every denial the kernel logged (Landlock's records, whatever check
# makes of them): the probes, and two that the policy allows but
# Landlock cannot say, which the workload does not need: sshd opens
# /proc/self/oom_score_adj with O_CREAT (the file exists, the open
# succeeds; Landlock logs the create it refused and the kernel ignored),
# and pam_motd replaces /run/motd.dynamic by a rename at each login, so
# its read after the first is of an inode the ruleset never had (the
# motd is not shown; PrintMotd is off in Debian's sshd_config anyway).
sed -n 's/^type=UNKNOWN\[1423\] .* blockers=\([^ ]*\) path="\([^"]*\)".*/\1 \2/p' \
	"$HM_TMP/p2.log" | sed 's,^\(fs.make_reg /proc/\)[0-9]*$,\1PID,' |
	sort | uniq -c >"$HM_TMP/landlock.denials"
cat "$HM_TMP/landlock.denials" >&2
grep -qx " *[0-9]* fs.read_file $key" "$HM_TMP/landlock.denials" ||
	hm_fail "the kernel logged no Landlock denial of the key's read"
other=$(grep -vx -e " *[0-9]* fs.read_file $key" -e " *[0-9]* fs.read_file $narrow" \
	-e ' *[0-9]* fs.make_reg /proc/PID' -e ' *[0-9]* fs.read_file /run/motd.dynamic' \
	"$HM_TMP/landlock.denials" || true)
[ -z "$other" ] || hm_fail "Landlock refused more than the probes and the two known gaps: $other"
hm_ok "the kernel's Landlock denials: the probes, and only the known O_CREAT and motd gaps"

# the header's Landlock counts with their first examples
"$HISTMAC" check -p "$POL" -i "$HM_TMP/p2.log" 2>/dev/null |
	sed -n '/^# .*[Ll]andlock/,/^$/p' | head -n 8 >&2 || true
hm_ok "check of the sandboxed period: $(jq -r '"\(.violations | length) violations, \(.landlock_allowed) Landlock denials of allowed calls, \(.sandbox_own_reads) preload reads"' "$HM_TMP/p2.json")"
stats=$(grep 'could not narrow:' "$SBX_OUT/sshd.err") ||
	hm_fail "the sandbox printed no --stats"
hm_ok "$stats${SBX_STRICT:+ (--strict)}"
! grep -q 'got it back' "$SBX_OUT/sshd.err" ||
	hm_ok "$(grep 'got it back' "$SBX_OUT/sshd.err")"
