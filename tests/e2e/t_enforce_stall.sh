#!/bin/bash
# t_enforce_stall.sh - the enforcer stalled by a mount
# table.  uid 65534, in a user and mount namespace of its own, stacks
# $MOUNTS tmpfs mounts on one directory (its /proc/TID/mountinfo then
# takes seconds to read) and opens its own allowed file through a new
# bind each time, so every open makes the daemon name a mount it never
# met.  Meanwhile uid 65534 reads a file its domain may not, and root
# reads an allowed one.  The opener's mount table is read within a
# budget: its own opens are denied (counted), nothing waits for the
# watchdog, so with --default allow the forbidden read is still denied,
# and with the watchdog's deny root's allowed reads are all allowed.
# Root's read times with no attack, in the same run, are the control.
# Another user (65533) opening its allowed file through new mounts of
# its own namespace meanwhile is named and allowed: each user's reading
# of mount tables has its own budget, so the slow opener is denied alone.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
hm_enf_policy		# "<kernel> $T/helper" may read $T/a, not $T/c
echo x >"$T/x"		# where the attacker binds $T/a
echo y >"$T/y"		# where another user binds it
mkdir -m 0755 "$HM_TMP/stack"
hm_enf_userns
MOUNTS=${HM_STALL_MOUNTS:-20000}
ATTACK_MS=8000

# $1: a helper's output; $2: its "every" line must say "$3 of"
_every() {
	case "$1" in
	*"every $2: $3 of "*) ;;
	*) hm_enf_fail "$4: $1" ;;
	esac
}

# The attacker stacks its mounts once (the kernel takes tens of seconds
# for 20,000 on a busy machine), then rebinds for ATTACK_MS each time a
# line comes on its stdin, the fifo on fd 9.
mkfifo "$HM_TMP/go"
"$T/helper" as 65534 ns stack "$MOUNTS" "$HM_TMP/stack" \
	rebind - "$T/a" "$T/x" <"$HM_TMP/go" >"$HM_TMP/attack.out" 2>&1 &
APID=$!
hm_on_exit "_hm_enf_kill_job $APID"
exec 9>"$HM_TMP/go"
hm_on_exit "exec 9>&-"
hm_wait_for "grep -q ' mounts$' '$HM_TMP/attack.out'" 3000 ||
	hm_fail "no mount stack: $(cat "$HM_TMP/attack.out")"
ROUND=0

# attack ARGS...: the daemon started with ARGS, the control, then the
# attack with root's and uid 65534's reads while it runs
attack() {
	local fpid opid n d met
	hm_enf_start --mode enforcing "$@"
	hm_enf_ok "$T/helper" every 20 20 "$T/a"
	CONTROL=$HM_ENF_OUT
	ROUND=$((ROUND + 1))
	echo "$ATTACK_MS" >&9
	sleep 0.5	# the rebinding runs
	"$T/helper" as 65534 every 50 40 "$T/c" >"$HM_TMP/forbidden.out" 2>&1 &
	fpid=$!
	hm_on_exit "_hm_enf_kill_job $fpid"
	# another user opens $T/a through a new mount of its own namespace
	# each time: its table is short, its budget its own
	"$T/helper" as 65533 ns rebind 2000 "$T/a" "$T/y" >"$HM_TMP/other.out" 2>&1 &
	opid=$!
	hm_on_exit "_hm_enf_kill_job $opid"
	_hm_enf_run "$T/helper" every 50 40 "$T/a"
	ROOT=$HM_ENF_OUT
	wait "$fpid" || true
	wait "$opid" || true
	FORBIDDEN=$(cat "$HM_TMP/forbidden.out")
	OTHER=$(cat "$HM_TMP/other.out")
	# did the reads meet the attack?  (checked below)
	met=$(grep -c '^rebind' "$HM_TMP/attack.out" || true)
	hm_wait_for "[ \$(grep -c '^rebind' '$HM_TMP/attack.out') -ge $ROUND ]" 1200 ||
		hm_enf_fail "the attacker did not rebind: $(cat "$HM_TMP/attack.out")"
	ATTACK=$(grep '^rebind' "$HM_TMP/attack.out" | tail -1)
	hm_enf_stop
	echo "  control, root: $CONTROL"
	echo "  attack, root:  $ROOT"
	echo "  attacker:      $ATTACK"
	echo "  forbidden:     $FORBIDDEN"
	echo "  other user:    $OTHER"
	_every "$FORBIDDEN" "$T/c" 40 "uid 65534's forbidden reads were not all denied (daemon $*)"
	_every "$ROOT" "$T/a" 0 "root's allowed reads were not all allowed during the attack (daemon $*)"
	# the slow opener is denied alone: another user's new mounts are named
	case "$OTHER" in
	*"rebind $T/y: "*" opens, 0 denied"*) ;;
	*) hm_enf_fail "another user's opens through its own new mounts were denied (daemon $*): $OTHER" ;;
	esac
	# the reads met the attack (else the machine is too slow for it)
	[ "$met" -lt "$ROUND" ] ||
		hm_enf_fail "the attack ended before the reads did: $(cat "$HM_TMP/attack.out")"
	# the slow opener is denied, and alone
	n=$(echo "$ATTACK" | sed -n 's/.*: \([0-9]*\) opens, .*/\1/p')
	d=$(echo "$ATTACK" | sed -n 's/.*, \([0-9]*\) denied,.*/\1/p')
	[ "${n:-0}" -gt 0 ] && [ "$n" = "$d" ] ||
		hm_enf_fail "the attacker's opens through a new mount were not all denied: $ATTACK"
	hm_enf_want "foreign mount tables over the budget" -ge 1
	hm_enf_want "answered by the watchdog (late)" -eq 0
	hm_enf_want "answered by the watchdog (loop stalled)" -eq 0
	# (in <kernel>: started before the daemon, in a user namespace, its
	# exe link is not believed)
	hm_enf_log_has "deny pid=[0-9]+ domain=\"<kernel>\" $T/x: reached through a mount of another namespace, whose mount table is over the time budget"
}

attack --default allow
hm_ok "a stalling mount table: the forbidden read is denied under --default allow, root's reads allowed"
attack
hm_ok "a stalling mount table: with the watchdog's deny, root's allowed reads are all allowed"
exec 9>&-
wait "$APID" || hm_fail "the attacker failed: $(cat "$HM_TMP/attack.out")"
