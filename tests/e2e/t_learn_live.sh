#!/usr/bin/env bash
# histmac learn running live beside the real auditd:
#  1. as an auditd plugin: it learns as events are logged, saves on its
#     timer and when auditd stops it (SIGTERM), and keeps its process table;
#  2. following the log: stopped and started again while a process it saw
#     start keeps running, it resumes from its state file and checkpoint, so
#     that process's next exec continues its chain (not "<kernel> PROG").
# (That follow mode loses and repeats no event across rotations is
# t_collector_follow.sh's test.)
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl
w=$HM_TMP/w
mkdir -p "$w"
echo data >"$w/data"
echo more >"$w/more"

# ---------------------------------------------------------------- plugin
pol=$HM_TMP/plugin-policy
cat >"$HM_TMP/hm-plugin" <<EOS
#!/bin/sh
exec "$HISTMAC" learn --plugin -q -p "$pol" --save-interval 1 2>>"$HM_TMP/plugin.err"
EOS
chmod 755 "$HM_TMP/hm-plugin"
sed "s|^path = .*|path = $HM_TMP/hm-plugin|" \
	"$HM_SRC/samples/audit/plugins.d/histmac.conf" >"$HM_TMP/histmac.conf"
hm_audit_start "$HM_TMP/histmac.conf"
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"
plugin=$(hm_audit_plugin_pid)

# This script is of unobserved history; the bash it starts is observed:
# bash becomes /bin/sh, which runs cat.
bash -c "exec /bin/sh -c 'cat $w/data >/dev/null; true'"
hm_audit_marker >/dev/null
# /bin/sh's directory resolved as TOMOYO does (/usr/bin/sh on merged /usr)
sh_name=$(readlink -f /bin)/sh
want="<kernel> /usr/bin/bash $sh_name /usr/bin/cat"
hm_wait_for "grep -qx '$want' '$pol/domain_policy.conf' 2>/dev/null" 100 ||
	hm_fail "the plugin did not save '$want' on its timer"
hm_ok "plugin learns and saves while running"

hm_audit_copy "$HM_TMP/plugin.log"
hm_audit_plugin_stop "$plugin"
awk -v d="$want" '$0 == d { on = 1; next } /^<kernel>/ { on = 0 } on' \
	"$pol/domain_policy.conf" | grep -qx "file read $w/data" ||
	hm_fail "no 'file read $w/data' in '$want'"
[ -s "$pol/histmac.state" ] || hm_fail "no process table saved at stop"
[ ! -s "$HM_TMP/plugin.err" ] || { cat "$HM_TMP/plugin.err" >&2; hm_fail "the plugin wrote errors"; }
hm_ok "plugin saves its policy and process table when auditd stops it"

# ---------------------------------------------------------------- follow
hm_audit_start		# a private auditd again (the first was stopped), or the system's
# the rules again: beside the system's auditd the plugin's stop removed them
[ -n "$(auditctl -l | grep -F 'key=hm_exec')" ] || hm_audit_rules "$HM_TMP/rules"
pol=$HM_TMP/follow-policy
start_learner() {
	"$HISTMAC" learn -q --follow "$HM_AUDIT_LOG" -p "$pol" --save-interval 1 \
		2>>"$HM_TMP/follow.err" &
	learner=$!
	hm_on_exit "hm_stop_pid $learner"
}
start_learner
sleep 1

# A long-lived /bin/sh the learner sees start; it waits for a go file.
bash -c "exec /bin/sh -c 'while [ ! -e $w/go ] && [ -d $w ]; do sleep 0.1; done; cat $w/more >/dev/null'" &
sh_pid=$!
hm_wait_for "grep -qx '<kernel> /usr/bin/bash $sh_name' '$pol/domain_policy.conf' 2>/dev/null" 100 ||
	hm_fail "the follower did not learn <kernel> /usr/bin/bash $sh_name"

# Stop the learner (SIGTERM: save, state, checkpoint) and start it again.
kill -TERM "$learner"
wait "$learner" || hm_fail "learn --follow exited $? on SIGTERM"
[ -s "$pol/histmac.state" ] && [ -s "$pol/follow.checkpoint" ] ||
	hm_fail "no state or checkpoint after SIGTERM"
grep -q "^$sh_pid " "$pol/histmac.state" || hm_fail "the sh ($sh_pid) is not in the state"
start_learner
touch "$w/go"
wait "$sh_pid"
hm_audit_marker >/dev/null
hm_wait_for "grep -qx '$want' '$pol/domain_policy.conf'" 100 ||
	{ grep '^<' "$pol/domain_policy.conf" >&2; hm_fail "the chain did not resume: no '$want'"; }
awk -v d="$want" '$0 == d { on = 1; next } /^<kernel>/ { on = 0 } on' \
	"$pol/domain_policy.conf" | grep -qx "file read $w/more" ||
	hm_fail "no 'file read $w/more' in '$want'"
grep -qx "<kernel> /usr/bin/cat" "$pol/domain_policy.conf" &&
	grep -A20 -x "<kernel> /usr/bin/cat" "$pol/domain_policy.conf" | grep -q "$w/more" &&
	hm_fail "after the restart the exec was learned as unobserved"
hm_ok "a restarted follower resumes chains from its state file"

kill -TERM "$learner"
wait "$learner" || hm_fail "learn --follow exited $? on SIGTERM"
[ ! -s "$HM_TMP/follow.err" ] || { cat "$HM_TMP/follow.err" >&2; hm_fail "the follower wrote errors"; }
