#!/bin/bash
# t_enforce_userns.sh - issue 24 item 1: a name chosen in a user
# namespace.  uid 65534 unshares a user and a mount namespace, bind-mounts
# a marked file its domain may not open over a name it may (the issue's
# /etc/hostname, an allowed file of the tmpfs, /dev/null for writing, an
# allowed program for exec, a file every domain may open in every mode),
# and opens that name: each open is judged by the file system's name of
# the file, so EPERM, and no kernel ignore mark is added for a file
# reached through another namespace's mount.  Controls: through the same
# foreign mounts, an allowed file (also bound over a forbidden name) and
# an allowed program are let through, so the daemon names, not refuses,
# what it reaches through a foreign mount, also chrooted there.  A file
# with no name left (unlinked) fails closed through a foreign mount.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
H="<kernel> $T/helper"
echo w >"$T/w"
chmod 0666 "$T/w"		# DAC lets uid 65534 write it; the policy not
mkdir -m 1777 "$T/u"		# uid 65534 unlinks its own files there
mkdir "$T/d" "$T/m1" "$T/m2"
echo f >"$T/d/f"
echo s >"$T/d/s"
for f in x1 x2; do
	echo x >"$T/u/$f"
	chown 65534:65534 "$T/u/$f"
done
hm_enf_policy_from "acl_group 0 file read $T/b
acl_group 0 file write $T/b
acl_group 0 file append $T/b
acl_group 0 file truncate $T/b
" <<EOP
<kernel>
use_profile 3
use_group 0

$H
use_profile 3
use_group 0
file read $T/a
file read $T/u/x1
file read $T/d/f
file read $T/u/x2
file read /etc/hostname
file write /dev/null
file execute $T/child

$H $T/child
use_profile 3
use_group 0
file read $T/a
EOP
hm_enf_userns

# $1: what is tried; $2: the helper's line that must end in EPERM
_eperm() {
	case "$HM_ENF_OUT" in
	*"$2: Operation not permitted"*) ;;
	*) hm_enf_fail "$1 was not denied: $HM_ENF_OUT" ;;
	esac
}

hm_enf_start --mode enforcing
hm_enf_nobody ns bind "$T/c" "$T/a" read "$T/a"
_eperm "a forbidden file read as an allowed one" "read $T/a"
if [ -f /etc/hostname ]; then
	hm_enf_nobody ns bind "$T/c" /etc/hostname read /etc/hostname
	_eperm "a forbidden file read as /etc/hostname" "read /etc/hostname"
fi
hm_enf_nobody ns bind "$T/w" /dev/null open wronly /dev/null
_eperm "a forbidden file written as /dev/null" "open wronly /dev/null"
hm_enf_nobody ns bind "$T/unlearned" "$T/child" exec "$T/child" read "$T/a"
_eperm "a forbidden program run as an allowed one" "exec $T/child"
hm_enf_nobody ns bind "$T/c" "$T/b" read "$T/b"
_eperm "a forbidden file read as a global one" "read $T/b"

# the bound-over file opened O_PATH there (no event), passed to a
# process of the first namespace, opened through /proc/self/fd: the
# mount is in neither the daemon's nor the opener's table, no name:
# denied
hm_enf_nobody passfd "$T/c" "$T/a"
_eperm "a foreign mount's fd passed out and reopened" "passfd $T/a"

# an unlinked file reopened through /proc/self/fd has no name left to
# check: through a foreign mount it fails closed (through ours it is
# named as before, the control below)
hm_enf_nobody ns reopen "$T/u/x1"
_eperm "a foreign mount's file with no name" "reopen $T/u/x1: reopen"

# controls: reached through a foreign mount, named by the file system
hm_enf_nobody ns read "$T/a" "$T/b"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "allowed reads through a foreign mount: $HM_ENF_OUT"
hm_enf_nobody ns bind "$T/a" "$T/c" read "$T/c"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "an allowed file under a forbidden name: $HM_ENF_OUT"
hm_enf_nobody ns exec "$T/child" read "$T/a"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "an allowed exec through a foreign mount: $HM_ENF_OUT"
# a foreign mount moved (MS_MOVE) after a file was named through it:
# the mount point the daemon kept for it is stale, the name is made anew
hm_enf_nobody ns bind "$T/d" "$T/m1" read1 "$T/m1/f" \
	move "$T/m1" "$T/m2" read "$T/m2/f" "$T/m2/s"
case "$HM_ENF_OUT" in
*"read $T/m1/f: ok"*"read $T/m2/f: ok"*"read $T/m2/s: Operation not permitted"*) ;;
*) hm_enf_fail "a moved foreign mount: $HM_ENF_OUT" ;;
esac
# chrooted in its namespace: paths from its root, still the same names
hm_enf_nobody ns chroot "$T" read /a
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "an allowed read from a chroot: $HM_ENF_OUT"
hm_enf_nobody ns chroot "$T" read /c
_eperm "a forbidden read from a chroot" "read /c"
hm_enf_nobody reopen "$T/u/x2"
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "an unlinked file reopened through our mount: $HM_ENF_OUT"
# no ignore mark came from the foreign opens of $T/c and $T/b
hm_enf_nobody read "$T/c"
_eperm "the secret after the attacks" "read $T/c"
hm_enf_nobody read "$T/b"		# here, the one ignore mark
[ "$HM_ENF_RC" = 0 ] || hm_enf_fail "uid 65534 read $T/b: $HM_ENF_OUT"
hm_enf_stop
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file read $T/c"
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file read $T/d/s"
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file write $T/w"
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file execute $T/unlearned"
hm_enf_want "kernel ignore marks added" -eq 1
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" $T/u/x1 \\(deleted\\): reached through a mount of another namespace, with no name in ours"
hm_enf_want "files reached through a foreign mount" -ge 5
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" $T/a: reached through a mount of another namespace, with no name in ours"
hm_enf_want "foreign mounts' files with no name (fail closed)" -eq 2
hm_ok "names chosen in a user namespace are judged by the file system's names"
