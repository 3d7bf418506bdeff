#!/bin/bash
# t_learn_logins.sh - another user's run of a service's program is not
# learned silently into the service's domain.
#  attack   with `initialize_domain SERVICE from any` (as patternize
#           suggests for a service), the service runs under one login
#           (auid 4250) and uid 65534 of another login (auid 4251) runs
#           the same program with an LD_PRELOAD library that opens a
#           file of its choosing: the run lands in the service's domain
#           (TOMOYO would put it there too), and the domain is flagged:
#           learn's summary, `histmac stats` and the report list it, and
#           `patternize --apply` needs --yes.
#  control  the service's runs alone (one login): no flag, no --yes.
#  --logins learning the service's login alone leaves the user's run out.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl
hm_audit_start
"$HISTMAC" rules | sed '/^-a always,/s/ -k / -F auid>=4250 -F auid<=4251 -k /' \
	>"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"

hm_public_dir 755
pub=$HM_PUB
hm_e2e_install open_exit.so "$pub/open_exit.so"
cat >"$pub/service" <<EOS
#!/bin/sh
cat $pub/service.conf >/dev/null
EOS
cat >"$pub/user-run" <<EOS
#!/bin/sh
LD_PRELOAD=$pub/open_exit.so HM_PRELOAD_OPEN=$pub/user-file exec $pub/service
EOS
chmod 755 "$pub/service" "$pub/user-run"
echo conf >"$pub/service.conf"
echo mine >"$pub/user-file"
chmod 644 "$pub/service.conf" "$pub/user-file"

# the login is set before the exec, so the run is all in the trail
run_as() {
	local auid=$1
	shift
	(echo "$auid" >/proc/self/loginuid && exec "$@") 9>&-
}
hm_audit_from_now
hm_audit_marker >/dev/null
run_as 4250 "$pub/service"
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/service.log"
hm_audit_from_now
run_as 4251 "$pub/setuser" 65534 65534 "$pub/user-run" ||
	hm_fail "the user's preloaded run failed"
run_as 4250 "$pub/service"
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/both.log"

learn() {
	local p=$1
	shift
	mkdir -p "$p"
	echo "initialize_domain $pub/service from any" >"$p/exception_policy.conf"
	"$HISTMAC" learn -p "$p" "$@" >"$p.out" || hm_fail "learn failed"
}
learn "$HM_TMP/both" -i "$HM_TMP/service.log" "$HM_TMP/both.log"
dom="<kernel> $pub/service"
awk -v d="$dom" '$0 == d { on = 1; next } /^<kernel>/ { on = 0 } on' \
	"$HM_TMP/both/domain_policy.conf" >"$HM_TMP/dom"
grep -qx "file read $pub/user-file" "$HM_TMP/dom" ||
	hm_fail "the user's run is not in the service's domain: the attack is not set up"
grep -q '^# histmac: .* logins=4250,4251$' "$HM_TMP/dom" ||
	hm_fail "the service's domain does not name both logins: $(grep logins "$HM_TMP/dom")"
grep -q '^  domains entered by several logins: [1-9]' "$HM_TMP/both.out" ||
	hm_fail "learn's summary does not flag it"
"$HISTMAC" stats -p "$HM_TMP/both" >"$HM_TMP/stats"
grep -qxF "  $dom: logins 4250,4251" "$HM_TMP/stats" ||
	hm_fail "stats does not list it: $(head -n 5 "$HM_TMP/stats")"
rc=0
"$HISTMAC" patternize --apply -p "$HM_TMP/both" >/dev/null 2>"$HM_TMP/err" || rc=$?
[ "$rc" = 3 ] || hm_fail "--apply without --yes: exit $rc"
hm_ok "a user's run of the service's program is flagged for review"

# learning one login, as the policy's histmac.conf may say: the user's
# run is not learned, and counted
learn "$HM_TMP/only" --logins 4250 -i "$HM_TMP/service.log" "$HM_TMP/both.log"
! grep -q "user-file" "$HM_TMP/only/domain_policy.conf" ||
	hm_fail "--logins 4250 learned the other login's run"
grep -qx "file read $pub/service.conf" "$HM_TMP/only/domain_policy.conf" ||
	hm_fail "--logins 4250 did not learn the service"
grep -q "not learned: another login's process (--logins) *[1-9]" "$HM_TMP/only.out" ||
	hm_fail "--logins: the other login's events are not counted"
hm_ok "learn --logins: only the service's login is learned"

learn "$HM_TMP/one" -i "$HM_TMP/service.log"
! grep -q 'logins=.*,' "$HM_TMP/one/domain_policy.conf" ||
	hm_fail "control: several logins in the service's run alone"
! grep -q 'several logins' "$HM_TMP/one.out" || hm_fail "control: flagged"
"$HISTMAC" patternize --apply -p "$HM_TMP/one" >/dev/null ||
	hm_fail "control: --apply refused"
hm_ok "control: the service alone is not flagged"
