#!/bin/bash
# t_collector_plugin.sh - histmac as an auditd plugin (format = string,
# events on stdin): every event auditd logs reaches it, it survives
# auditd's SIGHUP (reload), and on auditd's stop it writes everything
# and exits.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl awk
hm_build_workload
out=$HM_TMP/plugin.tsv
cat >"$HM_TMP/hm-plugin" <<EOS
#!/bin/sh
exec "$HISTMAC" events --plugin -o "$out" 2>>"$HM_TMP/plugin.err"
EOS
chmod 755 "$HM_TMP/hm-plugin"
sed "s|^path = .*|path = $HM_TMP/hm-plugin|" \
	"$HM_SRC/samples/audit/plugins.d/histmac.conf" >"$HM_TMP/histmac.conf"
hm_audit_start "$HM_TMP/histmac.conf"
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"
plugin=$(hm_audit_plugin_pid)

w=$HM_TMP/w
mkdir -p "$w"
m1=$(hm_audit_marker)
for step in exec file net; do
	"$HM_WORKLOAD" "$step" "$w" 47200 >/dev/null
done
m2=$(hm_audit_marker)
s2=$(hm_marker_serial "$m2")
hm_wait_for "awk -F'\t' '\$2 == $s2 {f=1} END {exit !f}' '$out'" 100 ||
	hm_fail "the plugin did not pass on marker event $s2"
hm_ok "plugin sees events as they are logged"

# reload: auditd sends the plugin SIGHUP; it must go on
kill -HUP "$HM_AUDIT_PID"
sleep 1
kill -0 "$plugin" 2>/dev/null || hm_fail "plugin died on SIGHUP"
"$HM_WORKLOAD" signal "$w" >/dev/null
m3=$(hm_audit_marker)
s3=$(hm_marker_serial "$m3")
hm_wait_for "awk -F'\t' '\$2 == $s3 {f=1} END {exit !f}' '$out'" 100 ||
	hm_fail "no events after SIGHUP"
hm_ok "plugin survives SIGHUP"

# stop: auditd ends the plugin, which must leave nothing behind
hm_audit_copy "$HM_TMP/audit.log"
hm_audit_plugin_stop "$plugin"
hm_expect "$out" exec "$(readlink -f /bin)/echo" - 'argv=echo,hello'
hm_expect "$out" rename "$w/f" "$w/g" ''
hm_expect "$out" connect - - 'family=inet type=stream fd=[0-9]+ addr=127.0.0.1 port=47200'
hm_expect "$out" signal - - 'sig=15'
# the same events as the log, none lost, none twice.  auditd's own
# events are left out on both sides (lib.sh: hm_daemon_stamps): one can
# fall inside the window of kernel serials, and DAEMON_END, sent at the
# stop, is in the plugin's feed but not in the log copied before it.
s1=$(hm_marker_serial "$m1")
"$HISTMAC" events -i "$HM_TMP/audit.log" >"$HM_TMP/log.tsv"
hm_daemon_stamps "$HM_TMP/daemon"
pick() {
	awk -F'\t' -v a="$s1" -v b="$s3" -v d="$HM_TMP/daemon" '
		BEGIN { while ((getline l < d) > 0) skip[l] = 1 }
		$2 >= a && $2 <= b && !(($1 " " $2) in skip) {print $2, $4}' "$1" |
		sort
}
pick "$HM_TMP/log.tsv" >"$HM_TMP/want"
pick "$out" >"$HM_TMP/got"
[ -s "$HM_TMP/want" ] || hm_fail "no events in the log"
diff "$HM_TMP/want" "$HM_TMP/got" >&2 || hm_fail "plugin and log differ"
[ ! -s "$HM_TMP/plugin.err" ] || { cat "$HM_TMP/plugin.err" >&2; hm_fail "plugin wrote errors"; }
hm_ok "plugin output equals the log ($(wc -l <"$HM_TMP/got") events)"
