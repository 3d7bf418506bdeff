#!/usr/bin/env bash
# docs/PRODUCTION.md section 7 as written, on a real service, with its
# marks on /usr/bin, /usr/sbin, /etc/init.d and the site's file system
# (issue 25): inside the kernel-oracle VM (tests/vm/production.sh), where
# those marks hold only the guest's kernel.  One boot: nginx + fcgiwrap
# started by their init scripts, one period learned from the guest's
# auditd, `patternize --apply` (its own initialize_domain lines for the
# two daemons, no hand step), section 6/7's profiles, `histmac enforce`
# on the marks, a second period with new names and the attack (a traversal read
# of the site's key through the CGI script), `histmac check` of it.
#   - the policy checks its own learning log with no denial;
#   - section 7's `--subtree '<kernel> /usr/sbin/nginx'` names a domain;
#   - check and the enforcer both report the attack;
#   - their violations under the marks agree (at most 5 % apart);
#   - at most 5 false denials per 1,000 checked accesses in period 2.
# HM_VM_OUT=DIR keeps the results.
set -eu
. "$HM_SRC/tests/e2e/lib.sh"
. "$HM_SRC/tests/e2e/vm_lib.sh"
. "$HM_SRC/tests/e2e/service_lib.sh"

hm_vm_need jq
if [ ! -x /etc/init.d/nginx ] || [ ! -x /etc/init.d/fcgiwrap ]; then
	hm_skip "nginx or fcgiwrap is not installed (scripts/deps.sh test)"
fi

out=${HM_VM_OUT:-$HM_TMP/vm}
"$HM_SRC/tests/vm/production.sh" --build "$HM_BUILD" --out "$out" >"$HM_TMP/run.out" 2>&1 ||
	{ cat "$HM_TMP/run.out" >&2; hm_fail "the VM run did not finish"; }
cat "$HM_TMP/run.out"
R=$out/share

# every step of the guest's run, with the exit it must have
status_is() {
	grep -q "^$1 $2\$" "$R/status" ||
		{ cat "$R/$1.out" >&2 2>/dev/null; cat "$R/status" >&2; hm_fail "$1 did not exit $2"; }
}
for st in period-4251 learn patternize-suggest patternize check-p1 profile-rest \
	profile-service period-4252 enforce; do
	status_is "$st" 0
done
status_is check-p2 1
hm_ok "learn, patternize --apply, section 7's profiles, enforce, both periods ran"
hm_svc_suggested "$R/patternize-suggest.out" /usr/sbin/nginx /usr/sbin/fcgiwrap
# the service's domains permissive, the rest disabled
grep -q '^2 permissive <kernel> /usr/sbin/fcgiwrap /srv/www/cgi-bin/show\.sh$' "$R/profiles.out" ||
	{ cat "$R/profiles.out" >&2; hm_fail "the CGI script's domain is not permissive"; }
if grep -v -e '^0 disabled ' -e '^2 permissive <kernel> /usr/sbin/\(nginx\|fcgiwrap\)' "$R/profiles.out" >&2; then
	hm_fail "a domain outside the service's subtrees is not disabled (above)"
fi
grep -q '^attack: -----BEGIN PRIVATE KEY' "$R/period-4252.out" ||
	hm_fail "the attack did not read the key (the enforcer is permissive)"

# period 1 against the policy learned from it
cp "$R/check-p1.out" "$HM_TMP/p1.json"
[ "$(jq .denied "$HM_TMP/p1.json")" = 0 ] ||
	{ _hm_svc_list p1; hm_fail "period 1 is denied by its own policy"; }
hm_ok "period 1 against its own policy: 0 of $(jq .accesses "$HM_TMP/p1.json") accesses denied"

# period 2: the attack by both, false denials, agreement under the marks
cp "$R/check-p2.out" "$HM_TMP/p2.json"
key='/srv/www/secret/key\.pem'
hm_svc_reported p2 "^file read $key\$" "the traversal read of the key" 'show\.sh /usr/bin/cat$'
grep -Eq "permissive pid=[0-9]+ domain=\"<kernel> /usr/sbin/fcgiwrap /srv/www/cgi-bin/show\.sh /usr/bin/cat\" file read $key\$" \
	"$R/enforce.log" || hm_fail "the enforcer did not report the read of the key"
hm_ok "enforce: the traversal read of the key reported"
denied=$(jq .denied "$HM_TMP/p2.json")
accesses=$(jq .accesses "$HM_TMP/p2.json")
attack=$(jq --arg re "^file read $key\$" \
	'[.violations[] | select(.line | test($re)) | .count] | add // 0' "$HM_TMP/p2.json")
false_k=$(awk -v d="$((denied - attack))" -v a="$accesses" 'BEGIN { printf "%.1f", d * 1000 / a }')
awk -v r="$false_k" 'BEGIN { exit !(r > 5) }' &&
	{ _hm_svc_list p2; hm_fail "period 2: $((denied - attack)) false denials of $accesses accesses ($false_k per 1,000)"; }
hm_ok "period 2: $((denied - attack)) false denials of $accesses accesses ($false_k per 1,000), $attack the attack's"
T="/srv/www /etc/init.d /usr/sbin /usr/bin"
DLOG=$R/enforce.log
hm_svc_agree p2
