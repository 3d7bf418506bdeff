#!/bin/bash
# t_shapes_learn.sh - the record shapes of tests/data (README, "Record
# shapes") give the entries TOMOYO would have checked: no read of a
# script or an ELF program by its own domain, the interpreter read kept;
# RHEL 7 objtype= objects; a tmpfs mount without the mount point as its
# device; mv's rename into a directory's descriptor (recorded) named in
# that directory; a stray quote in key= keeps the exec; histmac events
# prints '-' for values the records did not carry.
. "$(dirname "$0")/lib.sh"
data="$HM_SRC/tests/data"

learn() {	# learn DIR LOG: a policy from one log, symlinks kept
	"$HISTMAC" learn --no-resolve -p "$tmp/$1" -i "$data/$2" >"$tmp/$1.out" 2>&1 ||
		die "learn $2: $(cat "$tmp/$1.out")"
}
has() { grep -q -- "$2" "$1" || die "$3 (no '$2' in $1)"; }
hasnt() { ! grep -q -- "$2" "$1" || die "$3 ('$2' in $1)"; }

learn exec exec-repeat.log
p="$tmp/exec/domain_policy.conf"
has "$p" '^file read /bin/bash$' "script: interpreter read kept"
hasnt "$p" '^file read /opt/app/run.sh$' "script: read of itself"
hasnt "$p" '^file read /usr/bin/ls$' "ELF: read of its own binary"
has "$p" '^<kernel> /opt/app/run.sh /usr/bin/ls$' "ELF: domain"

learn trig exec-trigger.log
p="$tmp/trig/domain_policy.conf"
has "$p" '^file read /bin/sh$' "trigger exec: interpreter read kept"
hasnt "$p" '^file read /run/hm/tomoyo-init$' "trigger exec: the loader taken for the interpreter"
awk '/^<kernel>$/ { k = 1; next } /^<kernel> / { k = 0 } k' "$p" >"$tmp/trig/kernel"
has "$tmp/trig/kernel" '^file execute /run/hm/init' "PID 1 before the trigger: <kernel> executes it"

learn rhel rhel7-objtype.log
p="$tmp/rhel/domain_policy.conf"
has "$p" '^file unlink /etc/audit/rules.d/audit.rules$' "objtype=DELETE"
has "$p" '^file mkfifo /run/systemd/sessions/1.ref 0600$' "objtype=CREATE"
hasnt "$p" 'rules.d/$' "objtype=PARENT as object"

learn mnt mount-tmpfs.log
p="$tmp/mnt/domain_policy.conf"
has "$p" '^file mount \\\* /srv/cache/ \\\* 0x6$' "tmpfs mount: no device"
hasnt "$p" '^file mount /srv/cache/ ' "tmpfs mount: mount point as device"

# mv FILE DIR/ (recorded): the rename into DIR's descriptor is named in
# DIR, and the renameat2 that failed with EEXIST first is no access
learn mv dirfd-rename.log
p="$tmp/mv/domain_policy.conf"
has "$p" '^file rename /tmp/hmrec/in.1 /tmp/hmrec/box/in.1$' "mv FILE DIR/: destination in DIR"
[ "$(grep -c '^file rename ' "$p")" = 1 ] || die "mv FILE DIR/: not one rename entry: $(grep '^file rename ' "$p")"

learn quote stray-quote.log
has "$tmp/quote/domain_policy.conf" '^<kernel> /usr/bin/true$' "stray quote in key=: exec kept"

"$HISTMAC" events -i "$data/absent.log" >"$tmp/ev" 2>/dev/null || true
has "$tmp/ev" $'^1180000000.100\t101\t-\topen\topen\tyes\t3\t3100\t1\t0\t0\t0\t0\t4294967295\t-\t' "no ses= printed as -"
has "$tmp/ev" $'^1180000000.200\t102\t-\tother\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t' "no SYSCALL: pid, ids as -"
finish "t_shapes_learn"
