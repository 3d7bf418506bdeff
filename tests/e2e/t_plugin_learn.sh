#!/bin/bash
# t_plugin_learn.sh - the auditd plugin as installed (dist/audit-plugin.conf:
# `histmac learn --plugin`, policy_dir from histmac.conf) under a real
# auditd: the policy appears and grows while auditd runs, the learner
# survives auditd's SIGHUP, saves on auditd's stop, and what it learned is
# what `histmac learn` learns from the same log.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl awk
hm_build_workload
pol=$HM_TMP/policy
cat >"$HM_TMP/histmac.conf" <<EOC
policy_dir = $pol
save_interval = 1
# as the reference learn of the log below (-i does not resolve)
resolve_paths = no
EOC
# the installed plugin runs the binary itself; here a wrapper points the
# binary under test at the test's histmac.conf and passes auditd's args on
cat >"$HM_TMP/hm-plugin" <<EOS
#!/bin/sh
exec "$HISTMAC" --config "$HM_TMP/histmac.conf" "\$@" 2>>"$HM_TMP/plugin.err"
EOS
chmod 755 "$HM_TMP/hm-plugin"
sed -e "s|^path = .*|path = $HM_TMP/hm-plugin|" -e 's/^active = no$/active = yes/' \
	"$HM_BUILD/dist/audit-plugin.conf" >"$HM_TMP/histmac-plugin.conf"
grep -qx 'args = learn --plugin' "$HM_TMP/histmac-plugin.conf" ||
	hm_fail "the plugin conf does not run learn --plugin"
hm_audit_start "$HM_TMP/histmac-plugin.conf"
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"
plugin=$(hm_audit_plugin_pid)
dp=$pol/domain_policy.conf
entries() { grep -c '^file \|^network \|^misc \|^ipc ' "$dp" || true; }

w=$HM_TMP/w
mkdir -p "$w"
"$HM_WORKLOAD" file "$w" >/dev/null
hm_audit_marker >/dev/null
hm_wait_for "grep -q 'file create $w/f ' '$dp'" 150 ||
	hm_fail "no policy with the workload's file create after 15 s"
n1=$(entries)
hm_ok "policy appeared while auditd runs ($n1 entries)"

"$HM_WORKLOAD" net "$w" 47201 >/dev/null
hm_audit_marker >/dev/null
hm_wait_for "grep -q '127.0.0.1 47201' '$dp'" 150 ||
	hm_fail "the connect to port 47201 was not learned"
n2=$(entries)
[ "$n2" -gt "$n1" ] || hm_fail "policy did not grow ($n1 -> $n2)"
hm_ok "policy grows ($n1 -> $n2 entries)"

kill -HUP "$HM_AUDIT_PID"
sleep 1
kill -0 "$plugin" 2>/dev/null || hm_fail "plugin died on SIGHUP"
"$HM_WORKLOAD" exec "$w" >/dev/null
hm_audit_marker >/dev/null
hm_wait_for "grep -q 'file execute /bin/echo\|file execute /usr/bin/echo' '$dp'" 150 ||
	hm_fail "nothing learned after SIGHUP"
hm_ok "plugin survives SIGHUP and goes on learning"

# our rules out first: a system auditd goes on logging after the plugin
# stopped, and the log read below must end where the plugin's feed did
hm_audit_rules_unload
hm_audit_plugin_stop "$plugin"
hm_audit_copy "$HM_TMP/audit.log"
[ -s "$pol/histmac.state" ] || hm_fail "no process table saved"
# the whole (busy) machine is learned: quota warnings and the note on
# entries TOMOYO cannot say are no errors, nor the line each save logs
! grep -v -e '^warning: ' -e 'cannot be said in tomoyo' -e '^learn: saved ' "$HM_TMP/plugin.err" >&2 ||
	hm_fail "plugin wrote errors"
# the same domains and entries as learning the log afterwards
"$HISTMAC" --config "$HM_TMP/histmac.conf" learn -q -p "$HM_TMP/ref" \
	-i "$HM_TMP/audit.log" 2>/dev/null
strip() { grep -v '^#\|^$' "$1" | sed 's/ events=[0-9]*//' | sort; }
strip "$dp" >"$HM_TMP/got"
strip "$HM_TMP/ref/domain_policy.conf" >"$HM_TMP/want"
diff "$HM_TMP/want" "$HM_TMP/got" >&2 || hm_fail "plugin policy differs from learning the log"
hm_ok "saved on stop: $(grep -c '^<kernel>' "$dp") domains, $(entries) entries, as learning the log"
