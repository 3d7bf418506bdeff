#!/bin/bash
# t_patternize_trust.sh - names an ordinary user makes appear in the
# trail do not steer patternize into widening a service's entries.
#  attack   while a root "service" reads /etc/passwd, uid 65534 connect()s
#           to a unix socket /etc/<random> that does not exist (ENOENT is
#           learned: docs/PASSED.md), once, then to three such names.
#           patternize suggests no rule over /etc that is not refused, and
#           --apply leaves /etc/passwd literal and rewrite.conf without an
#           /etc rule.
#  control  the same run's temporary files (mktemp, made and removed by
#           root in a directory of the test's) are still generalized.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl python3 mktemp
hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"

hm_public_dir 755
pub=$HM_PUB
cat >"$pub/connect" <<'EOS'
#!/usr/bin/python3
# connect() to each unix socket name given; a missing one is fine
import socket, sys
for name in sys.argv[1].split(","):
    try:
        socket.socket(socket.AF_UNIX).connect(name)
    except OSError:
        pass
EOS
cat >"$pub/service" <<EOS
#!/bin/sh
cat /etc/passwd >/dev/null
for i in 1 2 3; do
	t=\$(mktemp -p $pub/tmp) && echo x >"\$t" && rm -f "\$t"
done
EOS
chmod 755 "$pub/connect" "$pub/service"
mkdir "$pub/tmp"

hm_audit_from_now
hm_audit_marker >/dev/null
"$pub/service"
"$pub/setuser" 65534 65534 "$pub/connect" /etc/Xq7Rb2Kd
"$pub/setuser" 65534 65534 "$pub/connect" /etc/Ab3dEfGh,/etc/Pq9Zt4Mw,/etc/Wm2Kx8Lq
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/audit.log"

p=$HM_TMP/policy
"$HISTMAC" learn -q -p "$p" -i "$HM_TMP/audit.log" || hm_fail "learn failed"
grep -q "^network unix stream connect /etc/Xq7Rb2Kd\$" "$p/domain_policy.conf" ||
	hm_fail "the failed connect was not learned: the attack is not set up"
grep -qx 'file read /etc/passwd' "$p/domain_policy.conf" ||
	hm_fail "the service's read of /etc/passwd was not learned"

"$HISTMAC" patternize -p "$p" >"$HM_TMP/suggest" || hm_fail "patternize failed"
grep -E '^\^\\/etc\\/' "$HM_TMP/suggest" &&
	hm_fail "patternize suggests a rule over /etc: $(cat "$HM_TMP/suggest")"
grep -qx "# refused: it would cover a sensitive name: /etc/shadow" "$HM_TMP/suggest" ||
	hm_fail "the rule the three names motivate is not shown refused"
# control: the service's temporary files (other rules may come from
# whatever else ran meanwhile: only these lines are looked at)
R="$pub/tmp/tmp.\\*" awk -F '\t' '$2 == ENVIRON["R"] && $1 !~ /^#/' "$HM_TMP/suggest" |
	grep -q . ||
	hm_fail "control: the service's temporary files are not generalized: $(cat "$HM_TMP/suggest")"
hm_ok "patternize: no rule over /etc from a user's failed connects; temporary files still"

"$HISTMAC" patternize --apply -p "$p" >"$HM_TMP/apply" || hm_fail "--apply failed"
grep -qxF "# $pub/tmp/tmp.\\* widens:" "$HM_TMP/apply" ||
	hm_fail "--apply does not say what the temporary rule widens"
grep -q '/etc' "$p/rewrite.conf" && hm_fail "rewrite.conf has an /etc rule"
grep -qF "$pub/tmp/tmp.\\*" "$p/rewrite.conf" ||
	hm_fail "control: rewrite.conf lacks the temporary files' rule"
grep -qx 'file read /etc/passwd' "$p/domain_policy.conf" ||
	hm_fail "--apply widened file read /etc/passwd"
grep -q '^[a-z ]* /etc/\\\*' "$p/domain_policy.conf" &&
	hm_fail "--apply wrote an /etc/\\* entry"
grep -qF "$pub/tmp/tmp.\\*" "$p/domain_policy.conf" ||
	hm_fail "control: --apply did not generalize the temporary files"
hm_ok "patternize --apply: /etc/passwd stays literal, the temporary files are generalized"
