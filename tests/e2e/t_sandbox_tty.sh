#!/usr/bin/env bash
# histmac sandbox keeps COMMAND off its caller's terminal (issue 24 #2):
# a sandboxed program run as nobody from a shell on a real terminal
# (a pty that is the shell's controlling terminal, kernel
# dev.tty.legacy_tiocsti=1) pushes "echo INJECTED" into the terminal's
# input with ioctl(TIOCSTI); the caller's shell then reads its input.
#  - control: without the sandbox the push works and the shell reads the
#    injected line (so the test can see an injection);
#  - under the sandbox TIOCSTI fails and the shell reads nothing: as
#    nobody by the kernel's own check (a new session: the terminal is no
#    longer the program's controlling one), so no seccomp filter is
#    installed (TIOCLINUX then fails as on any pty, ENOTTY);
#  - as root (CAP_SYS_ADMIN passes the kernel's check: the control shows
#    a root program in a new session injecting), the seccomp filter is
#    installed: TIOCSTI and TIOCLINUX fail with EPERM, and the shell
#    reads nothing.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

sbx_setup
sbx_cc tiocsti
sbx_cc pty_run

# the sysctl only exists from Linux 6.2; before it TIOCSTI is always on
knob=/proc/sys/dev/tty/legacy_tiocsti
if [ -e "$knob" ]; then
	old=$(cat "$knob")
	hm_on_exit "echo $old >$knob"
	echo 1 >"$knob"
fi

echo "initialize_domain $bin/tiocsti from any" >"$pol/exception_policy.conf"
{
	echo "<kernel> $bin/tiocsti"
	sbx_libs "$bin/tiocsti"
} >"$pol/domain_policy.conf"
sbx_policy_done

# run_on_tty OUT CMD...: on a new pty, as nobody, a shell runs CMD, then
# reads one line of its terminal's input (nobody types: only what CMD
# pushed) and says what it got.  run_on_tty_as_root: the same as root.
run_on_tty() {
	local out=$1
	shift
	run_on_tty_as_root "$out" setpriv --reuid=nobody --regid=nogroup \
		--clear-groups -- "$@"
}
run_on_tty_as_root() {
	local out=$1
	shift
	"$bin/pty_run" bash -c '"$@"; read -t 2 -r got; echo "got=[$got]"' \
		sh "$@" >"$out" 2>&1 || true
	tr -d '\r' <"$out" >"$out.txt"
}

for i in 1 2 3; do
	run_on_tty "$HM_TMP/free.$i" "$bin/tiocsti" "echo INJECTED-$i
"
	grep -qx "TIOCSTI ok" "$HM_TMP/free.$i.txt" &&
		grep -qx "got=\[echo INJECTED-$i\]" "$HM_TMP/free.$i.txt" ||
		{ cat "$HM_TMP/free.$i.txt" >&2; hm_fail "control: the injection did not reach the shell"; }
done
hm_ok "control: unconfined, TIOCSTI pushes a line the caller's shell reads"

for i in 1 2 3; do
	run_on_tty "$HM_TMP/sbx.$i" "$bin/histmac" sandbox -p "$pol" -- \
		"$bin/tiocsti" "echo INJECTED-$i
"
	out=$HM_TMP/sbx.$i.txt
	grep -q "^TIOCSTI " "$out" ||
		{ cat "$out" >&2; hm_fail "the sandboxed program did not run"; }
	grep -qx "TIOCSTI ok" "$out" &&
		{ cat "$out" >&2; hm_fail "TIOCSTI worked under the sandbox"; }
	grep -qx "got=\[\]" "$out" ||
		{ cat "$out" >&2; hm_fail "the caller's shell read injected input"; }
	grep -qx "TIOCSTI Operation not permitted" "$out" ||
		{ cat "$out" >&2; hm_fail "TIOCSTI did not fail with EPERM"; }
	grep -qx "TIOCLINUX ok" "$out" &&
		{ cat "$out" >&2; hm_fail "TIOCLINUX worked under the sandbox"; }
done
hm_ok "sandboxed as nobody, TIOCSTI and TIOCLINUX fail and nothing reaches the shell"

# root: CAP_SYS_ADMIN passes the kernel's check, a new session or not
for i in 1 2; do
	run_on_tty_as_root "$HM_TMP/rootfree.$i" setsid "$bin/tiocsti" "echo INJECTED-$i
"
	grep -qx "TIOCSTI ok" "$HM_TMP/rootfree.$i.txt" &&
		grep -qx "got=\[echo INJECTED-$i\]" "$HM_TMP/rootfree.$i.txt" ||
		{ cat "$HM_TMP/rootfree.$i.txt" >&2; hm_fail "control: root in a new session did not inject"; }
done
hm_ok "control: root in a new session still pushes a line the shell reads"
for i in 1 2; do
	run_on_tty_as_root "$HM_TMP/root.$i" "$bin/histmac" sandbox -p "$pol" -- \
		"$bin/tiocsti" "echo INJECTED-$i
"
	out=$HM_TMP/root.$i.txt
	grep -qx "TIOCSTI Operation not permitted" "$out" &&
		grep -qx "got=\[\]" "$out" &&
		grep -qx "TIOCLINUX Operation not permitted" "$out" ||
		{ cat "$out" >&2; hm_fail "root: the seccomp filter did not refuse TIOCSTI and TIOCLINUX"; }
done
hm_ok "sandboxed as root, the filter refuses TIOCSTI and TIOCLINUX (EPERM) and nothing reaches the shell"
