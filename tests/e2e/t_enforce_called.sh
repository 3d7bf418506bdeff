#!/bin/bash
# t_enforce_called.sh - issue 25: the enforcer names an exec by the name it
# was called by, as learn does, and only by a name the kernel's facts back.
#   1. learn and a permissive enforcer watch the same run (audit on): a
#      script outside the marks whose "#!" interpreter is inside them, and
#      an alternatives-style link ($T/awk -> ALT/awk -> $T/mawk) started
#      from the (unobserved) test shell; the enforcer's domains are the
#      ones learn names: the script's (not "<kernel> INTERP"), the link's
#      (not the target's);
#   2. enforcing, the same names decide a read; a process that writes over
#      its own AT_EXECFN, argv and command name after its exec, to claim
#      another program, a script of another interpreter, or a script inside
#      the marks, is named by what it executed and denied; a link with a
#      misleading name is named by that link.  Each claim is written while
#      another process's decision stalls the daemon, so the daemon reads the
#      process only after the claim (a claim of another name of the very
#      same file, which is allowed, shows that it did).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_need sh auditctl
hm_enf_setup
O=$HM_TMP/outside
ALT=$HM_TMP/alternatives
mkdir -p "$O/real" "$O/fake" "$ALT"
chmod 0755 "$O" "$O/real" "$O/fake" "$ALT"
RO=$(readlink -f "$O")
# the interpreter inside the marks, the script outside
cp "$(readlink -f /bin/sh)" "$T/sh"
printf '#!%s\nread x <%s && echo "read $x"\n' "$T/sh" "$T/a" >"$O/run.sh"
# awk -> /etc/alternatives/awk -> mawk, as Debian has it
cp "$T/helper" "$T/mawk"
ln -s "$T/mawk" "$ALT/awk"
ln -s "$ALT/awk" "$T/awk"
# the forger outside the marks (a long name: a claim must fit in it),
# another program, a name of the forger itself, a misleading link
F=$O/forger-with-a-long-name-for-its-claims
cp "$T/helper" "$F"
cp "$T/helper" "$O/good"
ln -s "$F" "$O/flink"
ln -s ../forger-with-a-long-name-for-its-claims "$O/fake/good"
printf '#!/bin/sh\nread x <%s && echo "read $x"\n' "$T/a" >"$O/real/good.sh"
printf '#!%s\nread x <%s\n' "$F" "$T/a" >"$T/marked.sh"
chmod 0755 "$O/run.sh" "$O/real/good.sh" "$T/marked.sh"

# --- 1: learn and the enforcer name the same run alike ------------------
hm_enf_policy_from <<EOP
<kernel>
use_profile 2
EOP
hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"
hm_audit_marker >/dev/null
hm_enf_start --mode permissive --verbose
hm_enf_ok "$O/run.sh"
hm_enf_ok "$T/awk" read "$T/a"
hm_enf_stop
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/learn.log"
LP=$HM_TMP/learned
"$HISTMAC" learn -q -i "$HM_TMP/learn.log" -p "$LP" || hm_fail "histmac learn failed"
for prog in "$RO/run.sh" "$T/awk"; do
	dom=$(sed -En "s|.*: pid [0-9]+ exec [^:]*: (<kernel>( [^ ]+)*)\$|\\1|p" "$DLOG" |
		grep -F " $prog" | head -1)
	[ "$dom" = "<kernel> $prog" ] ||
		hm_enf_fail "the enforcer named the exec of $prog '$dom'"
	grep -qxF "$dom" "$LP/domain_policy.conf" ||
		{ grep '^<kernel>' "$LP/domain_policy.conf" >&2; hm_fail "learn has no domain '$dom' (above)"; }
done
if grep -qE "exec [^:]*: <kernel> ($T/sh|$T/mawk)( |\$)" "$DLOG"; then
	grep -E "exec [^:]*: <kernel> ($T/sh|$T/mawk)" "$DLOG" >&2
	hm_fail "an exec was named after its interpreter or the link's target"
fi
hm_ok "a script whose interpreter alone is marked, and an alternatives link: named as learn names them in the same run"

# --- 2: enforcing; claims checked against what was executed --------------
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

<kernel> $RO/run.sh
use_profile 3
file read $T/a

<kernel> $T/awk
use_profile 3
file read $T/a

<kernel> $RO/good
use_profile 3
file read $T/a

<kernel> $RO/flink
use_profile 3
file read $T/a

<kernel> $RO/real/good.sh
use_profile 3
file read $T/a

<kernel> $T/marked.sh
use_profile 3
file read $T/a
EOP
HISTMAC_TEST_DECISION_DELAY_MS=400 hm_enf_start --mode enforcing --verbose \
	--decision-timeout 10
# a claim is written (CMD execs outside the marks) while a read of $T/b
# stalls the daemon (hm_enf_stalled): before the daemon reads it
hm_enf_ok "$O/run.sh"
hm_enf_ok "$T/awk" read "$T/a"
hm_enf_ok "$O/good" read "$T/a"
hm_enf_ok "$O/real/good.sh"
# another name of the very same file: taken, so the claim was read
hm_enf_stalled "$F" pose "$O/flink" flink "$O/flink" x read "$T/a"
[ "$HM_ENF_RC" = 0 ] ||
	hm_enf_fail "a claim of another name of the same file was not read: $HM_ENF_RC $HM_ENF_OUT"
RF=$(readlink -f "$F")
claim() {	# WHAT EXECFN COMM ARG0 ARG1
	local what=$1
	shift
	hm_enf_stalled "$F" pose "$@" read "$T/a"
	case "$HM_ENF_OUT" in
	*"Operation not permitted"*) ;;
	*) hm_enf_fail "the claim of $what was believed: $HM_ENF_RC $HM_ENF_OUT" ;;
	esac
}
claim "another program" "$O/good" good "$O/good" x
claim "a script of another interpreter" "$O/real/good.sh" good.sh "$RF" "$O/real/good.sh"
claim "a script inside the marks" "$T/marked.sh" marked.sh "$RF" "$T/marked.sh"
hm_enf_stalled "$O/fake/good" read "$T/a"
case "$HM_ENF_OUT" in
*"Operation not permitted"*) ;;
*) hm_enf_fail "a link named good read as $RO/good: $HM_ENF_RC $HM_ENF_OUT" ;;
esac
hm_enf_stop
n=$(grep -cE "deny pid=[0-9]+ domain=\"<kernel> $RF\" file read $T/a\$" "$DLOG" || true)
[ "$n" = 3 ] || hm_enf_fail "the claims were not denied in the forger's own domain ($n of 3)"
hm_enf_log_has "deny pid=[0-9]+ domain=\"<kernel> $RO/fake/good\" file read $T/a\$"
if grep -q "timeout (watchdog" "$DLOG"; then
	grep "timeout (watchdog" "$DLOG" >&2
	hm_fail "the daemon waited for its own answer"
fi
hm_ok "enforcing: names decide; claims of another program, another interpreter's script or a marked script are named by what ran"
