# shellcheck shell=bash
# tests/e2e/lib.sh - helpers shared by every end-to-end test.
#
# Source it from a tests/e2e/t_*.sh script (bash, set -eu).  ctest sets
# HISTMAC (the binary), HM_SRC (source tree) and HM_BUILD (build tree).
#
#   hm_need CMD...        a missing command fails the test when CI=true,
#                         otherwise skips it (exit 77, ctest SKIP)
#   hm_fail MSG / hm_skip MSG / hm_ok MSG
#   hm_on_exit CMD        run CMD (eval) at exit, last registered first
#   hm_audit_start [PLUGIN_CONF]
#                         take the global audit lock, then start a private
#                         auditd (temp config dir, temp log) or, if one is
#                         already running, use its log from the current
#                         offset.  Sets HM_AUDIT_LOG, HM_AUDIT_OFFSET,
#                         HM_AUDIT_PRIVATE (1 if we started it), HM_AUDIT_PID.
#                         A plugin conf can only be given to a private one.
#   hm_audit_rules FILE   load audit rules (auditctl -R) and raise the
#                         backlog; everything is restored at exit
#   hm_audit_marker       write a marker and wait until the log shows it
#   hm_audit_copy OUT     copy the log written since hm_audit_start
#   hm_e2e_install NAME DEST
#                         copy the helper program tests/e2e/NAME.c, as
#                         CMake built it (HM_BUILD/tests/e2e/NAME, with the
#                         project's warnings), to DEST; fails if not built
#   hm_build_workload     install tests/e2e/workload.c's program as
#                         HM_WORKLOAD (the name from when tests compiled it)
#   hm_daemon_stamps OUT  "SEC.MSEC SERIAL" of auditd's own events in the log
#
# Everything started here is stopped by pid in the exit trap; rules,
# backlog and the kernel's enabled flag are put back as they were.

set -eu

HISTMAC=${HISTMAC:-histmac}
HM_SRC=${HM_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
HM_BUILD=${HM_BUILD:-$HM_SRC/build}
HM_TMP=$(mktemp -d /tmp/hm-e2e.XXXXXX)
HM_AUDIT_LOCK=/run/histmac-audit.lock
HM_AUDIT_PRIVATE=0
HM_AUDIT_PID=
HM_AUDIT_LOG=
HM_AUDIT_OFFSET=0
HM_NAME=$(basename "$0" .sh)

_hm_exit_cmds=()

hm_on_exit() {
	_hm_exit_cmds+=("$1")
}

_hm_run_exit() {
	local rc=$? i
	set +e
	for ((i = ${#_hm_exit_cmds[@]} - 1; i >= 0; i--)); do
		eval "${_hm_exit_cmds[$i]}"
	done
	if [ "$rc" != 0 ] && [ "$rc" != 77 ] && [ -n "${HM_KEEP_TMP:-}" ]; then
		echo "$HM_NAME: keeping $HM_TMP" >&2
	else
		rm -rf "$HM_TMP"
	fi
	exit "$rc"
}
trap _hm_run_exit EXIT
trap 'exit 130' INT TERM

hm_fail() {
	echo "FAIL: $HM_NAME: $*" >&2
	exit 1
}

hm_skip() {
	if [ "${CI:-}" = true ]; then
		hm_fail "cannot run in CI: $*"
	fi
	echo "SKIP: $HM_NAME: $*" >&2
	exit 77
}

hm_ok() {
	echo "ok: $*"
}

hm_need() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || hm_skip "missing command $c"
	done
	[ "$(id -u)" = 0 ] || hm_skip "needs root"
}

hm_e2e_install() {
	local built=$HM_BUILD/tests/e2e/$1
	[ -x "$built" ] ||
		hm_fail "no $built: build the tree (cmake --build), or set HM_BUILD"
	cp "$built" "$2" || hm_fail "cannot copy $built to $2"
	chmod 755 "$2"
}

hm_build_workload() {
	HM_WORKLOAD=$HM_TMP/workload
	hm_e2e_install workload "$HM_WORKLOAD"
}

# Value of FIELD in `auditctl -s`.
_hm_audit_status() {
	auditctl -s | awk -v k="$1" '$1 == k { print $2 }'
}

# hm_wait_for CMD N: up to N tenths of a second for CMD to succeed.
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/wait_for.sh"

_hm_pid_alive() {
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null
}

# Stop a process we started (not our child): TERM, wait, then KILL.
hm_stop_pid() {
	local pid=$1 n=0
	_hm_pid_alive "$pid" || return 0
	kill -TERM "$pid" 2>/dev/null || return 0
	while _hm_pid_alive "$pid" && [ "$n" -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	_hm_pid_alive "$pid" && kill -KILL "$pid" 2>/dev/null
	return 0
}

_hm_write_auditd_conf() {
	local dir=$1 logdir=$2
	mkdir -p "$dir/plugins.d" "$logdir"
	chmod 700 "$dir" "$logdir"
	cat >"$dir/auditd.conf" <<EOF
local_events = yes
write_logs = yes
log_file = $logdir/audit.log
log_group = root
log_format = ENRICHED
flush = INCREMENTAL_ASYNC
freq = 20
max_log_file = ${HM_AUDIT_MAX_LOG_MB:-4096}
num_logs = 9
priority_boost = 4
name_format = NONE
max_log_file_action = ROTATE
space_left = 64
space_left_action = IGNORE
admin_space_left = 32
admin_space_left_action = IGNORE
disk_full_action = IGNORE
disk_error_action = IGNORE
use_libwrap = no
tcp_listen_queue = 5
tcp_max_per_addr = 1
tcp_client_max_idle = 0
transport = TCP
distribute_network = no
q_depth = 20000
overflow_action = SYSLOG
max_restarts = 10
plugin_dir = $dir/plugins.d
end_of_event_timeout = 2
EOF
	chmod 600 "$dir/auditd.conf"
}

hm_audit_start() {
	local plugin=${1:-} pid enabled
	hm_need auditd auditctl flock
	exec 9>"$HM_AUDIT_LOCK"
	flock -w 600 9 || hm_fail "cannot take $HM_AUDIT_LOCK"

	enabled=$(_hm_audit_status enabled)
	hm_on_exit "_hm_audit_restore_enabled $enabled"
	pid=$(_hm_audit_status pid)
	if [ -n "$pid" ] && [ "$pid" != 0 ] && _hm_pid_alive "$pid"; then
		[ -z "$plugin" ] || hm_skip "an auditd (pid $pid) is already running; plugin tests need a private one"
		HM_AUDIT_PID=$pid
		HM_AUDIT_LOG=$(sed -n 's/^ *log_file *= *//p' /etc/audit/auditd.conf)
		HM_AUDIT_LOG=${HM_AUDIT_LOG:-/var/log/audit/audit.log}
		HM_AUDIT_OFFSET=$(stat -c %s "$HM_AUDIT_LOG")
		return 0
	fi
	HM_AUDIT_CONF=$HM_TMP/auditd
	_hm_write_auditd_conf "$HM_AUDIT_CONF" "$HM_TMP/log"
	[ -z "$plugin" ] || cp "$plugin" "$HM_AUDIT_CONF/plugins.d/"
	HM_AUDIT_LOG=$HM_TMP/log/audit.log
	auditd -c "$HM_AUDIT_CONF" || hm_fail "auditd did not start"
	hm_wait_for '[ "$(_hm_audit_status pid)" != 0 ]' 100 ||
		hm_fail "auditd did not register with the kernel"
	HM_AUDIT_PID=$(_hm_audit_status pid)
	HM_AUDIT_PRIVATE=1
	hm_on_exit "hm_stop_pid $HM_AUDIT_PID"
	hm_wait_for '[ -s "$HM_AUDIT_LOG" ]' 100 || hm_fail "no $HM_AUDIT_LOG"
}

_hm_audit_restore_enabled() {
	[ "$(_hm_audit_status enabled)" = "$1" ] || auditctl -e "$1" >/dev/null
}

# Remove exactly the rules of $1 (rules that existed before stay).
_hm_audit_unload() {
	if [ "$2" = none ]; then
		auditctl -D >/dev/null
	else
		grep -E '^-a ' "$1" | sed 's/^-a /-d /' |
			while read -r line; do
				# shellcheck disable=SC2086
				auditctl $line >/dev/null 2>&1
			done
	fi
}

hm_audit_rules() {
	local file=$1 before backlog
	before=$(auditctl -l)
	if [ "$before" = "No rules" ]; then
		before=none
	else
		printf '%s\n' "$before" >"$HM_TMP/rules.before"
	fi
	backlog=$(_hm_audit_status backlog_limit)
	auditctl -b 8192 >/dev/null
	hm_on_exit "auditctl -b $backlog >/dev/null"
	# "some" when rules were there before: then only ours are deleted
	[ "$before" = none ] || before=some
	hm_on_exit "_hm_audit_unload '$file' $before"
	auditctl -R "$file" >"$HM_TMP/auditctl.out" 2>&1 ||
		{ cat "$HM_TMP/auditctl.out" >&2; hm_fail "auditctl -R $file"; }
}

# Send a user message and wait until it is in the log.  Prints the marker.
hm_audit_marker() {
	local m=hm-marker-$$-$RANDOM$RANDOM
	auditctl -m "$m" || hm_fail "auditctl -m"
	hm_wait_for "tail -c +$((HM_AUDIT_OFFSET + 1)) '$HM_AUDIT_LOG' | grep -q '$m'" 300 ||
		hm_fail "marker $m never reached $HM_AUDIT_LOG"
	echo "$m"
}

hm_audit_copy() {
	tail -c +$((HM_AUDIT_OFFSET + 1)) "$HM_AUDIT_LOG" >"$1"
}

# auditd's own events (DAEMON_START, _ROTATE, _CONFIG, _END) take their
# serials from auditd's own counter, which starts at a random number below
# 10000, not from the kernel's: on a freshly booted machine one can fall
# inside a window of kernel serials, and even equal a kernel event's
# serial.  Tests that compare events by serial leave these out.
hm_daemon_stamps() {
	grep -a -h '^type=DAEMON_' "$HM_AUDIT_LOG"* 2>/dev/null |
		sed -n 's/.*msg=audit(\([0-9.]*\):\([0-9]*\)).*/\1 \2/p' >"$1"
}

# Serial of the event that carries marker $1 (from hm_audit_marker).
hm_marker_serial() {
	grep -a -h "text=$1 " "$HM_AUDIT_LOG"* 2>/dev/null | head -n 1 |
		sed -n 's/.*msg=audit([0-9.]*:\([0-9]*\)).*/\1/p'
}

# hm_expect FILE KIND PATH1 PATH2 REGEX: `histmac events` TSV output FILE
# has a line of KIND whose path columns are PATH1 and PATH2 ('*' any) and
# whose details (column 20) match the extended REGEX (no backslash
# processing: write \\ for a backslash of the encoded output).
hm_expect() {
	HM_K=$2 HM_P1=$3 HM_P2=$4 HM_RE=$5 awk -F'\t' '
		BEGIN { k = ENVIRON["HM_K"]; p1 = ENVIRON["HM_P1"]
			p2 = ENVIRON["HM_P2"]; re = ENVIRON["HM_RE"] }
		$4 == k && (p1 == "*" || $18 == p1) && (p2 == "*" || $19 == p2) &&
		$20 ~ re { found = 1 }
		END { exit !found }' "$1" ||
		hm_fail "no '$2' event $3 $4 /$5/ in $1"
}
