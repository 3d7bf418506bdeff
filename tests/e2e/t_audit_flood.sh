#!/bin/bash
# t_audit_flood.sh - an ordinary user who floods the audit trail while a
# policy is learned slows the records down but hides nothing: with the
# backlog docs/PRODUCTION.md sets (auditctl -b 8192, which lib.sh's
# hm_audit_rules sets too), uid 65534 opens its own file 60,000 times in
# two processes while a root "service" opens 200 files of its own; the
# kernel loses no record (`lost` in auditctl -s unchanged), and every one
# of the service's opens is learned.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl python3
hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"
[ "$(_hm_audit_status backlog_limit)" -ge 8192 ] || hm_fail "backlog below 8192"

hm_public_dir 755
pub=$HM_PUB
cat >"$pub/flood" <<'EOS'
#!/usr/bin/python3
import os, sys
for _ in range(30000):
    os.close(os.open(sys.argv[1], os.O_RDONLY))
EOS
chmod 755 "$pub/flood"
echo x >"$pub/mine"
chmod 644 "$pub/mine"
mkdir "$pub/svc"
for i in $(seq 200); do echo "$i" >"$pub/svc/f$i"; done

hm_audit_from_now
hm_audit_marker >/dev/null
lost=$(_hm_audit_status lost)
"$pub/setuser" 65534 65534 "$pub/flood" "$pub/mine" &
f1=$!
"$pub/setuser" 65534 65534 "$pub/flood" "$pub/mine" &
f2=$!
hm_on_exit "kill $f1 $f2 2>/dev/null || true"
for i in $(seq 200); do cat "$pub/svc/f$i" >/dev/null; done
wait "$f1" || hm_fail "the first flood failed"
wait "$f2" || hm_fail "the second flood failed"
hm_audit_marker >/dev/null
now=$(_hm_audit_status lost)
[ "$now" = "$lost" ] || hm_fail "the kernel lost $((now - lost)) records"
hm_audit_copy "$HM_TMP/audit.log"

"$HISTMAC" learn -q -p "$HM_TMP/p" -i "$HM_TMP/audit.log" || hm_fail "learn failed"
n=$(grep -c "^file read $pub/svc/f[0-9]*\$" "$HM_TMP/p/domain_policy.conf" || true)
[ "$n" = 200 ] || hm_fail "$n of the service's 200 opens learned"
floods=$(grep -c "name=\"$pub/mine\"" "$HM_TMP/audit.log" || true)
[ "$floods" -ge 60000 ] || hm_fail "only $floods of the flood's 60,000 opens in the trail"
hm_ok "a flood of $floods records lost nothing: the service's 200 opens learned"
