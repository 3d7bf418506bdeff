#!/bin/bash
# t_enforce_naming.sh - issue 25 item 4: an exec the enforcer does not
# judge (its program outside the marks) enters the domain learn would
# name: a "#!" script by its own path with its directories resolved, not
# by its interpreter.  Two scripts outside the marks, called through a
# symlinked directory, read a marked file: the one whose domain (named
# by the script's resolved path) may read it does; the other's may not
# and fails with EPERM, logged in its script's domain.  An ELF program
# outside the marks given an executable file as its first argument (cat
# SCRIPT FILE, as env, nice or timeout are) is named after itself, not
# after that file (its parent's policy names no execute entry to tell).
# A script inside the marks started by a starter the enforcer does not
# judge (the test's shell, of unobserved history, or a script outside the
# marks it runs) enters "<kernel> SCRIPT" and "<kernel> STARTER SCRIPT",
# one transition each, as learn names them; a script outside the marks
# whose interpreter alone is marked, started by a judged program whose
# domain may execute both, enters the script's domain, not the
# interpreter's.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_need sh
hm_enf_setup
O=$HM_TMP/outside
mkdir -p "$O/real"
ln -s real "$O/link"
chmod 0755 "$O" "$O/real"
printf '#!/bin/sh\nread x <%s && echo "read $x"\n' "$T/a" >"$O/real/good.sh"
printf '#!/bin/sh\nread x <%s && echo "read $x"\n' "$T/b" >"$O/real/bad.sh"
chmod 0755 "$O/real/good.sh" "$O/real/bad.sh"
R=$(readlink -f "$O/real")
# each run by a script inside the marks, whose reads place the process
# before it execs the one outside
for s in good bad; do
	printf '#!/bin/sh\nexec %s\n' "$O/link/$s.sh" >"$T/run-$s"
	chmod 0755 "$T/run-$s"
done
CAT=$(readlink -f /bin/cat)
printf '#!/bin/sh\nexec %s %s %s\n' "$CAT" "$O/real/good.sh" "$T/a" >"$T/run-cat"
chmod 0755 "$T/run-cat"
# a script inside the marks (its interpreter outside), its starters; a
# script outside whose interpreter is inside
printf '#!/bin/sh\nread x <%s && echo "read $x"\n' "$T/c" >"$T/svc.sh"
printf '#!/bin/sh\n%s\n' "$T/svc.sh" >"$O/starter.sh"
cp "$(readlink -f /bin/sh)" "$T/sh"
printf '#!%s\nread x <%s && echo "read $x"\n' "$T/sh" "$T/c" >"$O/real/run.sh"
chmod 0755 "$T/svc.sh" "$O/starter.sh" "$O/real/run.sh"
RO=$(readlink -f "$O")
H="<kernel> $T/helper"
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

$H
use_profile 3
file execute $T/run-good
file execute $T/run-bad
file execute $T/run-cat
file execute $T/sh
file execute $R/run.sh

$H $R/run.sh
use_profile 3
file read $T/c

<kernel> $T/svc.sh
use_profile 3
file read $T/c
file read $T/svc.sh

<kernel> $RO/starter.sh
use_profile 3
file execute $T/svc.sh

<kernel> $RO/starter.sh $T/svc.sh
use_profile 3
file read $T/c
file read $T/svc.sh

$H $T/run-good
use_profile 3
file read $T/run-good
file execute $R/good.sh

$H $T/run-bad
use_profile 3
file read $T/run-bad
file execute $R/bad.sh

$H $T/run-good $R/good.sh
use_profile 3
file read $T/a

$H $T/run-bad $R/bad.sh
use_profile 3
file read $T/a

$H $T/run-cat
use_profile 3
file read $T/run-cat

$H $T/run-cat $CAT
use_profile 3
file read $T/a
EOP

hm_enf_start --mode enforcing --verbose
for run in "$T/svc.sh" "$O/starter.sh" "$T/helper exec $O/link/run.sh"; do
	# shellcheck disable=SC2086
	_hm_enf_run $run
	[ "$HM_ENF_RC" = 0 ] && [ "$HM_ENF_OUT" = "read c" ] ||
		hm_enf_fail "$run: not in the domain learn names: $HM_ENF_RC $HM_ENF_OUT"
done
hm_enf_nobody exec "$T/run-good"
[ "$HM_ENF_RC" = 0 ] && [ "$HM_ENF_OUT" = "read a" ] ||
	hm_enf_fail "the script named by its resolved path: $HM_ENF_RC $HM_ENF_OUT"
hm_enf_nobody exec "$T/run-bad"
case "$HM_ENF_OUT" in
*"Operation not permitted"*) ;;
*) hm_enf_fail "the other script read $T/b: $HM_ENF_RC $HM_ENF_OUT" ;;
esac
hm_enf_nobody exec "$T/run-cat"
[ "$HM_ENF_RC" = 0 ] && case "$HM_ENF_OUT" in *a) true ;; *) false ;; esac ||
	hm_enf_fail "cat given a script as argument, named after it: $HM_ENF_RC $HM_ENF_OUT"
hm_enf_stop
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H $T/run-bad $R/bad.sh\" file read $T/b"
grep -q "/usr/bin/dash\"\|/bin/sh\" file read" "$DLOG" &&
	hm_enf_fail "a domain was named after the interpreter"
grep -qE "exec [^:]*: <kernel>( [^ ]+)* $T/sh( |\$)" "$DLOG" &&
	hm_enf_fail "a domain was named after the marked interpreter"
hm_enf_log_has "exec [^:]*: <kernel> $T/svc.sh\$"
hm_enf_log_has "exec [^:]*: <kernel> $RO/starter.sh $T/svc.sh\$"
hm_ok "scripts outside the marks enter the domains learn names: by their resolved path, not their interpreter"
