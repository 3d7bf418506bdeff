# shellcheck shell=bash
# auditgen.sh - write small audit logs in auditd's RAW format for golden
# tests of domain names: exec, clone and open events of a process tree.
# Sourced; each function appends one event to stdout.
#   ag_start PID EXE        a process already running (its start not logged)
#   ag_clone PARENT CHILD   PARENT forks CHILD
#   ag_exec PID PROG        PID executes PROG
#   ag_open PID PATH [w]    PID opens PATH for reading (w: writing, creating)
#   ag_rename PID OLD NEW   PID renames OLD to NEW
#   ag_unlink PID PATH      PID removes PATH
declare -A ag_exe ag_ppid
ag_serial=1000
ag_sec=1796500000

# ag_stamp: the next event's msg=audit(...) stamp, in $s (no subshell:
# the serial must count up)
ag_stamp() {
	ag_serial=$((ag_serial + 1))
	s=$(printf '%d.%03d:%d' $((ag_sec + ag_serial / 1000)) $((ag_serial % 1000)) "$ag_serial")
}

# ag_syscall STAMP NR NAME EXIT ITEMS A1 A2 PID KEY
ag_syscall() {
	local pid=$8 exe=${ag_exe[$8]}
	printf 'type=SYSCALL msg=audit(%s): arch=c000003e syscall=%s success=yes exit=%s a0=ffffff9c a1=%s a2=%s a3=0 items=%s ppid=%s pid=%s auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm="%s" exe="%s" key="%s"\n' \
		"$1" "$2" "$4" "$6" "$7" "$5" "${ag_ppid[$pid]}" "$pid" "${exe##*/}" "$exe" "$9"
}

ag_path() {	# STAMP ITEM NAME MODE NAMETYPE
	printf 'type=PATH msg=audit(%s): item=%s name="%s" inode=%s dev=fe:00 mode=%s ouid=0 ogid=0 rdev=00:00 nametype=%s cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0\n' \
		"$1" "$2" "$3" $((4000 + ${#3})) "$4" "$5"
}

ag_tail() {	# STAMP TITLE
	printf 'type=CWD msg=audit(%s): cwd="/"\n' "$1"
	printf 'type=PROCTITLE msg=audit(%s): proctitle="%s"\n' "$1" "$2"
}

ag_start() {
	ag_exe[$1]=$2
	ag_ppid[$1]=1
}

ag_clone() {
	local s
	ag_stamp
	ag_syscall "$s" 56 clone "$2" 0 0 0 "$1" hm_fork
	printf 'type=PROCTITLE msg=audit(%s): proctitle="%s"\n' "$s" "${ag_exe[$1]##*/}"
	ag_exe[$2]=${ag_exe[$1]}
	ag_ppid[$2]=$1
}

ag_exec() {
	local s
	ag_stamp
	ag_exe[$1]=$2
	ag_syscall "$s" 59 execve 0 1 1 2 "$1" hm_exec
	printf 'type=EXECVE msg=audit(%s): argc=1 a0="%s"\n' "$s" "${2##*/}"
	ag_path "$s" 0 "$2" 0100755 NORMAL
	ag_tail "$s" "${2##*/}"
}

ag_open() {
	local s flags=0 type=NORMAL
	ag_stamp
	[ "${3:-}" = w ] && { flags=241; type=CREATE; }
	ag_syscall "$s" 257 openat 3 1 1 "$flags" "$1" hm_open
	ag_path "$s" 0 "$2" 0100644 "$type"
	ag_tail "$s" "${ag_exe[$1]##*/}"
}

ag_rename() {	# PID OLD NEW: rename(2), as logrotate and mv do
	local s
	ag_stamp
	ag_syscall "$s" 82 rename 0 4 1 0 "$1" hm_fsmod
	ag_path "$s" 0 "${2%/*}/" 040755 PARENT
	ag_path "$s" 1 "${3%/*}/" 040755 PARENT
	ag_path "$s" 2 "$2" 0100644 DELETE
	ag_path "$s" 3 "$3" 0100644 CREATE
	ag_tail "$s" "${ag_exe[$1]##*/}"
}

ag_unlink() {	# PID PATH
	local s
	ag_stamp
	ag_syscall "$s" 87 unlink 0 2 1 0 "$1" hm_fsmod
	ag_path "$s" 0 "${2%/*}/" 040755 PARENT
	ag_path "$s" 1 "$2" 0100644 DELETE
	ag_tail "$s" "${ag_exe[$1]##*/}"
}
