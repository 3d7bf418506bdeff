# shellcheck shell=bash
# tests/golden/check-landlock/gen.sh - audit records as auditd writes them
# (docs/SANDBOX.md "Denials in the audit trail": SYSCALL, CWD, PATH and,
# for a call Landlock denied, its type 1423 record, which libaudit 3.0.9
# names UNKNOWN[1423]), for t_check_landlock.sh.  Sourced.
T=1796316286

# rec TYPE SERIAL BODY
rec() {
	printf 'type=%s msg=audit(%s.%03d:%d): %s\n' "$1" "$T" $(($2 % 1000)) "$2" "$3"
}

# sysc SERIAL NR SUCCESS EXIT A0 A2 ITEMS PID KEY: a call of /srv/w/app as nobody
sysc() {
	rec SYSCALL "$1" "arch=c000003e syscall=$2 success=$3 exit=$4 a0=$5 a1=0 a2=$6 a3=0 items=$7 ppid=1 pid=$8 auid=4294967295 uid=65534 gid=65534 euid=65534 suid=65534 fsuid=65534 egid=65534 sgid=65534 fsgid=65534 tty=(none) ses=4294967295 comm=\"app\" exe=\"/srv/w/app\" key=\"$9\""
}

# path SERIAL ITEM NAME MODE INODE [OUID]: the object's owner root unless OUID
path() {
	rec PATH "$1" "item=$2 name=\"$3\" inode=$5 dev=fe:00 mode=$4 ouid=${6:-0} ogid=0 rdev=00:00 nametype=NORMAL cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0"
}

# exec_app SERIAL PID: PID executes /srv/w/app
exec_app() {
	sysc "$1" 59 yes 0 0 0 2 "$2" hm_exec
	rec EXECVE "$1" 'argc=1 a0="/srv/w/app"'
	rec CWD "$1" 'cwd="/srv/w"'
	path "$1" 0 /srv/w/app 0100755 101
	path "$1" 1 /lib64/ld-linux-x86-64.so.2 0100755 102
	rec EOE "$1" ""
}

# open_at SERIAL PID NAME FLAGS MODE INODE [BLOCKERS [OUID]]: an openat
# that succeeds (BLOCKERS empty), or with BLOCKERS fails with EACCES and
# Landlock's record says why; BLOCKERS "-": fails with EACCES, no
# Landlock record (a kernel before ABI 7, or another cause).  OUID: the
# object's owner (default root)
open_at() {
	local ok=yes rc=3
	if [ -n "${7:-}" ]; then
		ok=no rc=-13
		[ "$7" = - ] ||
			rec 'UNKNOWN[1423]' "$1" "domain=14b554e54 blockers=$7 path=\"$3\" dev=\"vda\" ino=$6"
	fi
	sysc "$1" 257 "$ok" "$rc" ffffff9c "$4" 1 "$2" hm_open
	rec CWD "$1" 'cwd="/srv/w"'
	path "$1" 0 "$3" "$5" "$6" "${8:-0}"
	rec EOE "$1" ""
}

# kill_denied SERIAL PID: kill(1, SIGTERM), which Landlock's signal
# scoping refused (TOMOYO 2.6 checks no signal)
kill_denied() {
	rec 'UNKNOWN[1423]' "$1" 'domain=14b554e54 blockers=scope.signal opid=1 ocomm="systemd"'
	sysc "$1" 62 no -1 1 0 0 "$2" hm_kill
	rec EOE "$1" ""
}
