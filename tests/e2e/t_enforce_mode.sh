#!/bin/bash
# t_enforce_mode.sh - issue 11 item 4: a write open is judged as a write.
# An unprivileged process whose domain holds only "file read $T/a" (the
# file itself is writable by everyone: only the enforcer stands between)
# opens it read-only: allowed; for writing, appending or truncating, with
# open(2) or openat2(2): EPERM, and the log names the operation denied.
# openat2's flags live in the opener's memory, which a second thread can
# rewrite after the kernel copied them (tried 100 times): its mode is
# unknown, judged as read and write, so even its O_RDONLY gets EPERM.
# The thread variant: the main thread waits in a read-only open of a
# FIFO while a second thread opens $T/a O_RDWR; the mode judged is that
# thread's (FAN_REPORT_TID), not the main thread's: EPERM.  An open made
# through io_uring (inline, or by an io-wq worker thread) has no mode to
# read either: the same; so has an open through the 32-bit system call
# table (int $0x80 from a 64-bit process, on x86_64).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_need mkfifo
hm_enf_setup
H="<kernel> $T/helper"
hm_enf_policy		# $H may read $T/a; all enforcing
chmod 0666 "$T/a"
FIFO=$HM_TMP/fifo	# outside the mark: no event of its own
mkfifo -m 0666 "$FIFO"

hm_enf_start --mode enforcing
hm_enf_nobody open rdonly "$T/a"
[ "$HM_ENF_RC" = 0 ] ||
	hm_enf_fail "open O_RDONLY of a readable file failed: $HM_ENF_OUT"
for call in open open2; do
	for mode in wronly rdwr append rdappend trunc wrtrunc; do
		hm_enf_nobody "$call" "$mode" "$T/a"
		case "$HM_ENF_OUT" in
		*"open $mode $T/a: Operation not permitted"*) ;;
		*) hm_enf_fail "$call $mode of a read-only file: $HM_ENF_OUT" ;;
		esac
	done
done
# openat2's flags are in the opener's memory, which another thread may
# rewrite after the kernel copied them: never believed
hm_enf_nobody open2-race 100 "$T/a"
case "$HM_ENF_OUT" in
*"open2-race: 0 of 100 opened"*) ;;
*) hm_enf_fail "openat2 O_RDWR with its flags rewritten meanwhile: $HM_ENF_OUT" ;;
esac
# a 64-bit process entering through the 32-bit table (int $0x80): the
# call numbers are another table's, the mode is unknown.  A kernel with
# ia32 emulation off (as here) has no such entry: nothing to get through.
n32=0
if [ "$(uname -m)" = x86_64 ]; then
	for mode in rdonly rdwr; do
		hm_enf_nobody open32 "$mode" "$T/a"
		case "$HM_ENF_OUT" in
		*"open32 $mode $T/a: Operation not permitted"*) n32=$((n32 + 1)) ;;
		*"open32: no 32-bit system call entry here"*) ;;
		*) hm_enf_fail "a 32-bit $mode open, mode unknown, not failed closed: $HM_ENF_OUT" ;;
		esac
	done
fi
hm_enf_nobody thread-open "$FIFO" rdwr "$T/a"
case "$HM_ENF_OUT" in
*"open rdwr $T/a: Operation not permitted"*) ;;
*) hm_enf_fail "O_RDWR from a thread beside a read-only open: $HM_ENF_OUT" ;;
esac
for call in open2 uring uring-async; do
	hm_enf_nobody "$call" rdonly "$T/a"
	case "$HM_ENF_OUT" in
	*"open rdonly $T/a: Operation not permitted"*) ;;
	*) hm_enf_fail "$call O_RDONLY, mode unknown, not failed closed: $HM_ENF_OUT" ;;
	esac
done
hm_enf_nobody thread-open "$FIFO" rdonly "$T/a"
[ "$HM_ENF_RC" = 0 ] ||
	hm_enf_fail "O_RDONLY from a thread beside a read-only open: $HM_ENF_OUT"
hm_enf_stop
[ "$(cat "$T/a")" = a ] || hm_enf_fail "$T/a was changed: $(cat "$T/a")"

D="deny pid=[0-9]+ domain=\"$H\" file"
# wronly, rdwr, and append, rdappend: $T/a is not append-only, so an
# append is judged as a write (t_enforce_append.sh)
hm_enf_log_has "$D write $T/a\$"
hm_enf_log_has "$D truncate $T/a\$"		# trunc: O_RDONLY|O_TRUNC
hm_enf_log_has "$D write/truncate $T/a\$"	# wrtrunc
n=$(grep -cE "$D [a-z/]+ $T/a\$" "$DLOG")
# open(2) x 6 modes, and the thread's O_RDWR
[ "$n" = 7 ] || hm_enf_fail "$n denials logged, want 7"
U="$D write $T/a \(open mode unknown: judged as read and write\)\$"
n=$(grep -cE "$U" "$DLOG")
# openat2 x 7 modes, 100 races, io_uring x 2, 32-bit x 2
[ "$n" = $((109 + n32)) ] ||
	hm_enf_fail "$n denials of unknown modes logged, want $((109 + n32))"
hm_enf_want "open modes unknown (judged read and write)" -ge $((109 + n32))
hm_ok "write, append and truncate opens of a read-only file are denied, from any thread"
