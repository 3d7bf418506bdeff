#!/usr/bin/env bash
# postfix local delivery (smtpd and pickup chrooted in /var/spool/postfix,
# as Debian configures it) through docs/PRODUCTION.md's workflow (issue
# 25): learn one period (postfix started by its init script, mail by SMTP
# and by sendmail to a local user whose ~/.forward pipes it to a filter, a
# reload, a restart, stopped), `patternize --apply`, then a second period
# of the same kinds of mail with other subjects and bodies checks with at
# most 5 false denials per 1,000 accesses; a third period in which an
# attacker rewrote the user's ~/.forward to run a program of its own (a
# key read, a connect out, a listener) is reported by check, and `histmac
# enforce --mode permissive` on the user's home (a tmpfs) reports the same
# violations there as check.
set -eu
. "$HM_SRC/tests/e2e/lib.sh"
. "$HM_SRC/tests/e2e/service_lib.sh"

. "$HM_SRC/tests/e2e/service/postfix/setup.sh"

pf_setup "$HM_SRC/tests/e2e/service/postfix/filter"
mkdir -p "$S/tools"
hm_e2e_install tcp_listen "$S/tools/tcp_listen"
hm_svc_listen "$S/tools/tcp_listen" 8099
hm_on_exit "/etc/init.d/postfix stop >/dev/null 2>&1"

cycle=". '$D/cycle.sh'"
hm_svc_learn_period "$cycle; period"
find "$S/home/mail" -type f | grep -q . || hm_fail "the filter kept no mail"
hm_svc_check_period "$cycle; period"
cp "$D/evil" "$S/home/.x"
chown hm-mail "$S/home/.x"
echo "\"|$S/home/.x\"" >"$S/home/.forward"
hm_svc_attack_period "$cycle; period"
hm_svc_reported p3 "^file execute $S/home/\\.x( |\$)" "the injected program's exec"
hm_svc_reported p3 "^file read $S/home/\\.ssh/id_ed25519\$" "the read of the user's key"
hm_svc_reported p3 '^network inet stream connect 127\.0\.0\.1 8099$' "the connect out"
hm_svc_reported p3 '^network inet stream (bind|listen|bind/listen) 127\.0\.0\.1 8097$' "the listener"
hm_svc_agree p3
