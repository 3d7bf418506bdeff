#!/bin/bash
# t_enforce_lostexec.sh - issue 24 item 8: a lost transition.  A judged
# program ($T/fast, in the marks, statically linked so that it execs at
# once) execs one outside the marks ($HM_TMP/outb) at once; the daemon
# often applies the first exec event when /proc/PID/exe already shows the
# second.  An exec event with a later one of the same process queued is
# entered by its judged name, so the domain is always
# <kernel> $T/helper $T/fast $HM_TMP/outb, which may read $T/a: 50
# attempts as uid 65534 (25 one by one, 25 at once), none may lose the
# $T/fast component.  Control: $HM_TMP/outb exec'd without $T/fast is
# denied.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
hm_enf_attack -static
cp "$HM_TMP/attack" "$T/fast"
cp "$T/helper" "$HM_TMP/outb"
chmod 755 "$HM_TMP/outb"
H="<kernel> $T/helper"
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

$H
use_profile 3
file execute $T/fast

$H $T/fast $HM_TMP/outb
use_profile 3
file read $T/a
EOP
hm_enf_start --mode enforcing --verbose

# control: without $T/fast, another domain
hm_enf_nobody exec "$HM_TMP/outb" read "$T/a"
case "$HM_ENF_OUT" in
*"read $T/a: Operation not permitted"*) ;;
*) hm_enf_fail "$HM_TMP/outb read $T/a in its own domain: $HM_ENF_OUT" ;;
esac

lost=0
for i in $(seq 25); do
	hm_enf_nobody exec "$T/fast" exec "$HM_TMP/outb" read "$T/a"
	[ "$HM_ENF_RC" = 0 ] || lost=$((lost + 1))
done
pids=()
for i in $(seq 25); do
	"$T/helper" as 65534 exec "$T/fast" exec "$HM_TMP/outb" read "$T/a" \
		>"$HM_TMP/par.$i" 2>&1 &
	pids+=("$!")
	hm_on_exit "_hm_enf_kill_job $!"
done
for i in $(seq 25); do
	wait "${pids[$((i - 1))]}" || lost=$((lost + 1))
done
hm_enf_stop
[ "$lost" = 0 ] || {
	grep -h "Operation not permitted" "$HM_TMP"/par.* >&2 || true
	grep -E "deny|exec|believed" "$DLOG" | tail -80 >&2
	hm_fail "$lost of 50 execs lost their $T/fast component"
}
hm_enf_want "execs tracked" -ge 100
hm_ok "a judged exec followed at once by another: 0 of 50 lost the component"
