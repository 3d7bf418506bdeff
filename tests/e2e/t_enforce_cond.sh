#!/bin/bash
# t_enforce_cond.sh - issue 24 item 3: a condition the enforcer cannot
# evaluate made its entry grant as if there were none.  Against a
# hand-written enforcing policy, as uid 65534 in "<kernel> $T/helper":
#   path1.uid=0         root-owned $T/a read, 65534-owned $T/n denied
#   path1.uid=task.uid  own $T/mine read, root-owned $T/b denied (and
#                       root reads $T/b: the opener's uid is read)
#   exec.argv[1]="--safe"          the new program's argv does not exist
#   exec.envp["LD_PRELOAD"]=NULL   when the exec is judged: the exec is
#                       denied with and without the argument or the
#                       variable (fail closed), while an unconditional
#                       exec in the same domain runs; LD_PRELOAD set no
#                       longer reaches the domain
# and `histmac policy check` names the two exec lines FILE:LINE.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
H="<kernel> $T/helper"
echo n >"$T/n"
echo m >"$T/mine"
chown 65534:65534 "$T/n" "$T/mine"
# acl_group 0, used by every domain: root-owned $T/c in every mode
hm_enf_policy_from "acl_group 0 file read $T/c path1.uid=0
acl_group 0 file write $T/c path1.uid=0
acl_group 0 file append $T/c path1.uid=0
acl_group 0 file truncate $T/c path1.uid=0
" <<EOP
<kernel>
use_profile 3
use_group 0

$H
use_profile 3
use_group 0
file read $T/a path1.uid=0
file read $T/n path1.uid=0
file read $T/mine path1.uid=task.uid
file read $T/b path1.uid=task.uid
file execute $T/child exec.argv[1]="--safe"
file execute $T/other exec.envp["LD_PRELOAD"]=NULL
file execute $T/unlearned

$H $T/unlearned
use_profile 3
use_group 0
file read $T/a

$H $T/other
use_profile 3
use_group 0
file read $T/a
EOP

# --- policy check names what the enforcer cannot evaluate ------------------
"$HISTMAC" policy check -p "$POL" >"$HM_TMP/check.out" ||
	{ cat "$HM_TMP/check.out" >&2; hm_fail "policy check failed"; }
dp="$POL/domain_policy.conf"
for want in "$dp:12: warning: histmac enforce cannot evaluate 'exec.argv\\[1\\]=\"--safe\"'" \
	"$dp:13: warning: histmac enforce cannot evaluate 'exec.envp\\[\"LD_PRELOAD\"\\]=NULL'" \
	": 0 errors, 2 warnings\$"; do
	grep -qE -e "$want" "$HM_TMP/check.out" ||
		{ cat "$HM_TMP/check.out" >&2; hm_fail "policy check lacks /$want/"; }
done
hm_ok "policy check warns about the exec.argv and exec.envp lines, only"

# nobody CMD... WANT: uid 65534 runs CMD in $H; its output must match WANT
nobody() {
	local want=${*: -1}
	hm_enf_nobody "${@:1:$#-1}"
	case "$HM_ENF_OUT" in
	$want) ;;
	*) hm_enf_fail "uid 65534 '${*:1:$#-1}': got '$HM_ENF_OUT', want '$want'" ;;
	esac
}

hm_enf_start --mode enforcing
# path1.uid=0
nobody read "$T/a" "read $T/a: ok"
nobody read "$T/n" "*read $T/n: Operation not permitted*"
# path1.uid=task.uid
# root first: its grant must not be cached for the domain's other uids
hm_enf_ok "$T/helper" read "$T/b"
nobody read "$T/mine" "read $T/mine: ok"
nobody read "$T/b" "*read $T/b: Operation not permitted*"
# exec.argv[1]: never known at the exec's permission event
nobody exec "$T/child" --safe "*exec $T/child: Operation not permitted*"
nobody exec "$T/child" --unsafe "*exec $T/child: Operation not permitted*"
# exec.envp["LD_PRELOAD"]=NULL: likewise, and the preload stays out
nobody setenv LD_PRELOAD "$HM_TMP/evil.so" exec "$T/other" read "$T/a" \
	"*exec $T/other: Operation not permitted*"
nobody exec "$T/other" read "$T/a" "*exec $T/other: Operation not permitted*"
# the control: an unconditional exec in the same domain runs
nobody exec "$T/unlearned" read "$T/a" "read $T/a: ok"
# every domain may open root's $T/c in every mode, by a condition: no
# ignore mark, so once it is 65534's the condition is judged again
hm_enf_ok "$T/helper" open rdwr "$T/c"
chown 65534:65534 "$T/c"
nobody open rdwr "$T/c" "*open rdwr $T/c: Operation not permitted*"
hm_enf_stop
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file read $T/n"
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file read $T/b"
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file execute $T/child"
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file execute $T/other"
if grep -qE "deny pid=[0-9]+ domain=\"$H\" file read $T/(a|mine)\$" "$DLOG"; then
	hm_enf_fail "a read whose condition holds was denied"
fi
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file (read/write|write|read) $T/c"
# no conditional grant became an ignore mark
hm_enf_want "kernel ignore marks added" -eq 0
hm_ok "path1.uid=0, path1.uid=task.uid hold or not by the file and the opener; exec.argv and exec.envp entries grant nothing"
