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
#                         With the system's auditd running, PLUGIN_CONF is
#                         installed in its plugin_dir and started by a reload.
#   hm_audit_plugin_pid   the test plugin's pid (waits for it)
#   hm_audit_plugin_stop PID  auditd ends the plugin (private: auditd stops;
#                         system: the test's rules are removed, then the
#                         plugin, and auditd reloaded)
#                         HM_AUDIT_LOCK_HELD=1: the caller holds the lock
#                         (scripts/with-system-auditd.sh)
#   hm_audit_rules FILE   load audit rules (auditctl -R) and raise the
#                         backlog; everything is restored at exit
#   hm_audit_rules_unload remove those rules now
#   hm_audit_marker       write a marker and wait until the log shows it
#   hm_audit_copy OUT     copy the log written since hm_audit_start (or
#                         the last hm_audit_from_now), across rotations
#   hm_audit_copy_tree OUT PID [below]
#                         hm_audit_copy of the events of PID's process
#                         tree alone (without PID's own: below)
#   hm_audit_from_now     later copies start at the log's current end
#   hm_audit_snapshot DIR copies of every file of the log, oldest first
#   hm_audit_all_files    every file of the log, oldest first (beside the
#                         system's auditd, copies of those it rotated since
#                         hm_audit_start: it may delete them past num_logs)
#   hm_e2e_install NAME DEST
#                         copy the helper program tests/e2e/NAME.c, as
#                         CMake built it (HM_BUILD/tests/e2e/NAME, with the
#                         project's warnings), to DEST; fails if not built
#   hm_public_dir MODE    a directory other uids reach (/tmp/hm-NAME.X,
#                         MODE 755 or 1777), with setuser; sets HM_PUB
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
	# background jobs the test left (it failed before it waited for
	# them): they hold a copy of the audit lock's fd, so one left waiting
	# would hold the lock for every later run
	for i in $(jobs -p); do
		kill -KILL "$i" 2>/dev/null
		wait "$i" 2>/dev/null
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

# hm_public_dir MODE: a directory under /tmp that other uids reach
# (HM_TMP is private), MODE 755 or 1777, removed at exit, with
# tests/e2e/setuser.c in it; its path in HM_PUB.
hm_public_dir() {
	HM_PUB=$(mktemp -d "/tmp/hm-$HM_NAME.XXXXXX")
	hm_on_exit "rm -rf '$HM_PUB'"
	chmod "$1" "$HM_PUB"
	hm_e2e_install setuser "$HM_PUB/setuser"
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
# hm_running NAME: a process NAME runs (not a zombie: where pid 1 reaps
# orphans late, a service's ended processes stay zombies for a while)
hm_running() {
	pgrep -x -r D,R,S,T,t,I "$1" >/dev/null
}

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
	# scripts/with-system-auditd.sh holds it for a whole run; a second
	# call (a test that starts auditd again) holds it already: opening
	# fd 9 again would let it go, with the test's rules still loaded
	if [ "${HM_AUDIT_LOCK_HELD:-}" != 1 ] && [ -z "${_hm_audit_locked:-}" ]; then
		local waited=$SECONDS
		exec 9>"$HM_AUDIT_LOCK"
		flock -w 600 9 || hm_fail "cannot take $HM_AUDIT_LOCK"
		_hm_audit_locked=1
		# another build tree's test held it: say so, a run's times
		# are read with it
		waited=$((SECONDS - waited))
		[ "$waited" -lt 2 ] || echo "# waited $waited s for $HM_AUDIT_LOCK"
	fi

	enabled=$(_hm_audit_status enabled)
	hm_on_exit "_hm_audit_restore_enabled $enabled"
	pid=$(_hm_audit_status pid)
	if [ -n "$pid" ] && [ "$pid" != 0 ] && _hm_pid_alive "$pid"; then
		HM_AUDIT_PID=$pid
		HM_AUDIT_LOG=$(sed -n 's/^ *log_file *= *//p' /etc/audit/auditd.conf)
		HM_AUDIT_LOG=${HM_AUDIT_LOG:-/var/log/audit/audit.log}
		[ -z "$plugin" ] || _hm_audit_plugin_add "$plugin"
		[ -d "$HM_TMP/kept" ] || _hm_audit_keep_start
		hm_audit_from_now
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
	HM_AUDIT_INODE=$(stat -c "$_HM_ID" "$HM_AUDIT_LOG") ||
		hm_fail "cannot stat $HM_AUDIT_LOG"
}

# What hm_audit_copy copies starts here: the log's current end.
hm_audit_from_now() {
	local st
	# one stat: inode and size of one file, even if auditd rotates now;
	# between its rename and its new file there is no log: wait
	hm_wait_for '[ -e "$HM_AUDIT_LOG" ]' 50 ||
		hm_fail "no $HM_AUDIT_LOG for 5 s (auditd rotating?)"
	st=$(stat -c "$_HM_ID %s" "$HM_AUDIT_LOG") ||
		hm_fail "cannot stat $HM_AUDIT_LOG"
	HM_AUDIT_INODE=${st% *}
	HM_AUDIT_OFFSET=${st#* }
}

# A file of the log is its inode and birth time: auditd deletes its
# oldest file and a new log may get that inode again.
_HM_ID='%i.%.9W'

# A busy system auditd rotates every few seconds (max_log_file) and
# deletes its oldest file past num_logs, sooner than a test reads the log
# again: from hm_audit_start on, each file it rotates is copied to
# $HM_TMP/kept/INODE (its inode in the log dir), in order.
_hm_audit_keep_start() {
	mkdir -p "$HM_TMP/kept"
	: >"$HM_TMP/kept/order"
	(
		exec 9>&-	# not the audit lock's fd
		while :; do
			_hm_audit_keep_once
			sleep 0.1
		done
	) &
	hm_on_exit "kill $! 2>/dev/null"
}

_hm_audit_keep_once() {
	local f ino
	for f in $(_hm_audit_rotated); do
		ino=$(stat -c "$_HM_ID" "$f" 2>/dev/null) || continue
		[ ! -e "$HM_TMP/kept/$ino" ] || continue
		# a rotated file is complete: auditd writes only the log
		cp "$f" "$HM_TMP/kept/.$ino.$BASHPID" 2>/dev/null &&
			mv "$HM_TMP/kept/.$ino.$BASHPID" "$HM_TMP/kept/$ino" &&
			echo "$ino" >>"$HM_TMP/kept/order"
	done
	return 0
}

# The rotated files, oldest first: LOG.N ... LOG.1 (auditd's rotation
# renames LOG to LOG.1, LOG.1 to LOG.2, ...).
_hm_audit_rotated() {
	local n
	for n in $(ls "$HM_AUDIT_LOG".* 2>/dev/null | sed -n 's/.*\.\([0-9]*\)$/\1/p' |
		   sort -rn); do
		echo "$HM_AUDIT_LOG.$n"
	done
}

# "INODE PATH" of every file of the log, oldest first: the kept copies
# (named by the inode they had in the log dir), the rotated files not
# kept, the log.
_hm_audit_files() {
	local f ino
	if [ -d "$HM_TMP/kept" ]; then
		_hm_audit_keep_once
		awk '!seen[$0]++' "$HM_TMP/kept/order" | while read -r ino; do
			echo "$ino $HM_TMP/kept/$ino"
		done
	fi
	for f in $(_hm_audit_rotated) "$HM_AUDIT_LOG"; do
		ino=$(stat -c "$_HM_ID" "$f" 2>/dev/null) || continue
		[ -e "$HM_TMP/kept/$ino" ] || echo "$ino $f"
	done
}

# hm_audit_all_files: every file of the log, oldest first, one a line,
# kept copies included (for a reference read of the whole log).
hm_audit_all_files() {
	_hm_audit_files | cut -d' ' -f2-
}

# hm_audit_snapshot DIR: a copy of every file of the log, oldest first,
# as DIR/0001, DIR/0002, ...: what a reference read needs, taken again
# when auditd rotated meanwhile (a list read then could miss a file).
hm_audit_snapshot() {
	local dir=$1 try ino f list k
	for try in 1 2 3 4 5; do
		rm -rf "$dir"
		mkdir -p "$dir"
		list=$(_hm_audit_files)
		k=0
		while read -r ino f; do
			k=$((k + 1))
			cp "$f" "$dir/$(printf %04d "$k")" 2>/dev/null || break
		done <<<"$list"
		[ "$list" = "$(_hm_audit_files)" ] && return 0
	done
	hm_fail "auditd rotated $HM_AUDIT_LOG during each of 5 snapshots"
}

# Everything logged since HM_AUDIT_OFFSET of the file that was the log
# then (HM_AUDIT_INODE), followed through the rotations since.  Fails,
# saying so, when that file is gone (rotated past num_logs).
_hm_audit_since() {
	local out=$1 try ino f list found
	for try in 1 2 3; do
		list=$(_hm_audit_files)
		found=
		: >"$out"
		while read -r ino f; do
			if [ -z "$found" ]; then
				[ "$ino" = "$HM_AUDIT_INODE" ] || continue
				found=$f
				tail -c +$((HM_AUDIT_OFFSET + 1)) "$f" >>"$out"
			else
				cat "$f" >>"$out"
			fi
		done <<<"$list"
		# a rotation while we read renamed the files: read again
		[ "$list" = "$(_hm_audit_files)" ] && break
	done
	[ -n "$found" ] || hm_fail "the audit log of this test's start (inode $HM_AUDIT_INODE of $HM_AUDIT_LOG) is gone: auditd rotated it out (num_logs) while the test ran"
}

# The system's auditd runs: PLUGIN_CONF goes into its plugin_dir and a
# reload (SIGHUP) starts it, as an administrator installs a plugin; at the
# end it is removed and a reload ends it (auditd sends it SIGTERM).
_hm_audit_plugin_add() {
	local dir
	dir=$(sed -n 's/^ *plugin_dir *= *//p' /etc/audit/auditd.conf)
	dir=${dir:-/etc/audit/plugins.d}
	HM_AUDIT_PLUGIN_CONF=$dir/histmac-e2e-$$.conf
	cp "$1" "$HM_AUDIT_PLUGIN_CONF" ||
		hm_fail "cannot install the test's plugin as $HM_AUDIT_PLUGIN_CONF"
	hm_on_exit _hm_audit_plugin_remove
	_hm_audit_reload_until "pgrep -P '$HM_AUDIT_PID' -f '$HM_TMP/'" ||
		hm_fail "auditd (pid $HM_AUDIT_PID) did not start the test's plugin $HM_AUDIT_PLUGIN_CONF on reload"
}

# Reload auditd until CMD holds (3 s each): a reload sometimes fails
# (seen: DAEMON_CONFIG "op=reconfigure state=no-change ... res=failed"
# one second after another reload), and then nothing changes.
_hm_audit_reload_until() {
	local i
	for i in 1 2 3 4 5; do
		kill -HUP "$HM_AUDIT_PID" 2>/dev/null || return 1
		hm_wait_for "$1" 30 && return 0
	done
	return 1
}

_hm_audit_plugin_remove() {
	[ -n "${HM_AUDIT_PLUGIN_CONF:-}" ] || return 0
	rm -f "$HM_AUDIT_PLUGIN_CONF"
	HM_AUDIT_PLUGIN_CONF=
	_hm_audit_reload_until "! pgrep -P '$HM_AUDIT_PID' -f '$HM_TMP/'"
}

# hm_audit_plugin_pid: the pid of the test's plugin, a child of auditd
# whose command line names this test's temp dir (the system's auditd has
# plugins of its own).
hm_audit_plugin_pid() {
	local p=
	hm_wait_for "pgrep -P '$HM_AUDIT_PID' -f '$HM_TMP/'" 100 ||
		hm_fail "auditd (pid $HM_AUDIT_PID) did not start the test's plugin"
	p=$(pgrep -P "$HM_AUDIT_PID" -f "$HM_TMP/" | head -n 1)
	echo "$p"
}

# hm_audit_plugin_stop PLUGIN_PID: auditd ends the plugin: a private one
# is stopped; the system's is told the plugin is gone (reload).  Waits
# until the plugin exited.
hm_audit_plugin_stop() {
	if [ "$HM_AUDIT_PRIVATE" = 1 ]; then
		hm_stop_pid "$HM_AUDIT_PID"
		hm_wait_for "! kill -0 $1 2>/dev/null" 100 ||
			hm_fail "plugin (pid $1) still running 10 s after auditd stopped"
	else
		# our rules out first: under their flood auditd's reloads fail
		# (its signal-info request: DAEMON_CONFIG "res=failed")
		[ -z "${HM_AUDIT_UNLOAD:-}" ] || hm_audit_rules_unload
		_hm_audit_plugin_remove ||
			hm_fail "plugin (pid $1) still running after its conf was removed and auditd (pid $HM_AUDIT_PID) reloaded 5 times"
	fi
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
	HM_AUDIT_UNLOAD="_hm_audit_unload '$file' $before"
	hm_on_exit "$HM_AUDIT_UNLOAD"
	auditctl -R "$file" >"$HM_TMP/auditctl.out" 2>&1 ||
		{ cat "$HM_TMP/auditctl.out" >&2; hm_fail "auditctl -R $file"; }
}

# Remove the rules hm_audit_rules loaded, now (again at exit: no harm).
hm_audit_rules_unload() {
	eval "$HM_AUDIT_UNLOAD"
}

# Send a user message and wait until it is in the log.  Prints the marker.
hm_audit_marker() {
	local m=hm-marker-$$-$RANDOM$RANDOM
	auditctl -m "$m" || hm_fail "auditctl -m"
	# new and unique: in the log or, if it rotated since, in LOG.1
	hm_wait_for "grep -aqsF '$m' '$HM_AUDIT_LOG' '$HM_AUDIT_LOG.1'" 300 ||
		hm_fail "marker $m never reached $HM_AUDIT_LOG"
	echo "$m"
}

hm_audit_copy() {
	_hm_audit_since "$1"
}

# hm_audit_copy_tree OUT PID [below]: hm_audit_copy, keeping only the
# events of the process tree of PID (other tests run beside it under the
# same rules): a process is ours when its parent is, or an audited fork
# of ours made it.  With "below", PID's own events are left out.
hm_audit_copy_tree() {
	hm_audit_copy "$1.all"
	awk -v root="$2" -v below="${3:-}" '
		BEGIN { ours[root] = 1 }
		{ s = $0; sub(/.*msg=audit\([0-9.]*:/, "", s); sub(/\).*/, "", s) }
		/(^| )type=SYSCALL / {
			pid = $0; sub(/.* pid=/, "", pid); sub(/ .*/, "", pid)
			ppid = $0; sub(/.* ppid=/, "", ppid); sub(/ .*/, "", ppid)
			if (ppid in ours) ours[pid] = 1
			keep[s] = (pid in ours) && !(below && pid == root)
			if ((pid in ours) && $0 ~ / syscall=(56|57|58|435) .*success=yes/) {
				x = $0; sub(/.* exit=/, "", x); sub(/ .*/, "", x)
				ours[x] = 1
			}
		}
		keep[s]' "$1.all" >"$1"
}

# auditd's own events (DAEMON_START, _ROTATE, _CONFIG, _END) take their
# serials from auditd's own counter, which starts at a random number below
# 10000, not from the kernel's: on a freshly booted machine one can fall
# inside a window of kernel serials, and even equal a kernel event's
# serial.  Tests that compare events by serial leave these out.
hm_daemon_stamps() {
	hm_audit_all_files | xargs grep -a -h '^type=DAEMON_' 2>/dev/null |
		sed -n 's/.*msg=audit(\([0-9.]*\):\([0-9]*\)).*/\1 \2/p' >"$1"
}

# Serial of the event that carries marker $1 (from hm_audit_marker, so
# it is in the log).  Asked again when not found: a rotation between the
# list of files and their read moves it to a file not in the list.
hm_marker_serial() {
	local try s
	for try in 1 2 3 4 5; do
		s=$(hm_audit_all_files | xargs grep -a -h "text=$1 " 2>/dev/null |
			head -n 1 | sed -n 's/.*msg=audit([0-9.]*:\([0-9]*\)).*/\1/p')
		[ -n "$s" ] && { echo "$s"; return 0; }
		sleep 0.2
	done
	hm_fail "marker $1 not found in the log's files (rotated away?)"
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
