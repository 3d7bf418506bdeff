#!/bin/bash
# t_enforce_overlay.sh - the enforcer on an overlay, as live images and
# container roots are built: a lower layer of files, programs and
# symlinks, a tmpfs upper layer.  A process reaching a file through the
# overlay is judged by the overlay's name (the name learn gives it,
# resolved through symlinks as TOMOYO does), whichever layer holds it,
# whether the overlay is marked or the file systems of its layers are:
#
#   lower    a file read through a symlink of the lower layer: allowed
#            by its resolved name; another file of the layer: denied
#   copy-up  a lower file appended to through the overlay (copied up to
#            the upper layer on that open), then read: allowed, by one
#            name before and after
#   exec     a program dropped into the overlay (upper layer only) by
#            the attacker: its exec denied; a program of the lower layer
#            run through its link: allowed, its domain named by the
#            link, its reads judged there
#
# Once with the overlay marked (layers unmarked), once with the layers'
# file systems marked (the overlay not: a container host marking the
# file system its containers' layers are on).  The overlay opens a
# layer's file itself, through a private mount of the layer that no
# mount table lists; with the layers marked that open is the one the
# enforcer sees, and it names the file through the overlay.  Both marked
# are refused at start.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
H="<kernel> $T/helper"
n=0

# overlay LOWER UPPER-FS: an overlay of LOWER below a tmpfs at UPPER-FS
# (mounted here), at $r
overlay() {
	local l=$1 u=$2
	n=$((n + 1))
	mkdir -p "$l/lib" "$l/etc" "$l/bin" "$u"
	echo lib >"$l/lib/libz.so.1.2.13"
	ln -s libz.so.1.2.13 "$l/lib/libz.so.1"
	echo other >"$l/etc/other.conf"
	echo old >"$l/etc/edited.conf"
	cp "$T/helper" "$l/bin/prog"
	ln -s prog "$l/bin/prog-link"
	mount -t tmpfs -o mode=755 "hm-ovl-upper$n" "$u"
	hm_on_exit "umount '$u'"
	mkdir "$u/u" "$u/w"
	r=$T/root$n
	mkdir "$r"
	mount -t overlay "hm-ovl$n" -o "lowerdir=$l,upperdir=$u/u,workdir=$u/w" "$r"
	hm_on_exit "umount '$r'"
	cp "$T/helper" "$r/bin/evil"	# the attacker's, in the upper layer only
	hm_enf_policy_from <<EOP
<kernel>
use_profile 3

$H
use_profile 3
file read $r/lib/libz.so.1.2.13
file read/append $r/etc/edited.conf
file write $r/etc/edited.conf
file execute $r/bin/prog-link exec.realpath="$r/bin/prog"

$H $r/bin/prog-link
use_profile 3
file read $r/lib/libz.so.1.2.13
EOP
}

# workload HOW: the three cases on the overlay at $r, the enforcer up
workload() {
	hm_enf_ok "$T/helper" read "$r/lib/libz.so.1"
	hm_enf_eperm "$T/helper" read "$r/etc/other.conf"
	hm_ok "$1: lower: a file read through its link allowed, another denied"

	hm_enf_ok "$T/helper" open append "$r/etc/edited.conf"
	[ -e "$u/u/etc/edited.conf" ] || hm_fail "$1: no copy-up: $(ls -R "$u/u")"
	hm_enf_ok "$T/helper" read "$r/etc/edited.conf"
	hm_ok "$1: copy-up: the file appended to (copied up) and read by one name"

	hm_enf_eperm "$T/helper" exec "$r/bin/evil" read "$r/lib/libz.so.1"
	hm_enf_ok "$T/helper" exec "$r/bin/prog-link" read "$r/lib/libz.so.1"
	hm_enf_eperm "$T/helper" exec "$r/bin/prog-link" read "$r/etc/edited.conf"
	hm_enf_stop
	hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file execute $r/bin/evil"
	hm_enf_log_has "deny pid=[0-9]+ domain=\"$H $r/bin/prog-link\" file read $r/etc/edited.conf"
	hm_ok "$1: exec: a dropped program's exec denied; the lower program's domain named by its link"

	if grep -E "(allow|deny) .*($l|$u)/" "$DLOG"; then
		hm_fail "$1: a layer's own name was judged"
	fi
	k=$(grep -c ': deny pid=' "$DLOG" || true)
	[ "$k" = 3 ] || { grep ': deny ' "$DLOG" >&2; hm_fail "$1: $k denials, want 3"; }
}

# The overlay marked; its layers on file systems not marked.
l=$HM_TMP/lower1 u=$HM_TMP/upper1
overlay "$l" "$u"
hm_enf_start --mode enforcing --mark "$r"
workload "overlay marked"
hm_enf_want "overlay layers' files, named through the overlay" = 0

# The layers' file systems marked ($T holds the lower layer); not the
# overlay.
l=$T/lower2 u=$HM_TMP/upper2
overlay "$l" "$u"
hm_enf_start --mode enforcing --mark "$u"
workload "layers marked"
hm_enf_want "overlay layers' files, named through the overlay" -gt 0
hm_enf_want "overlay copy-ups let through (the overlay's own)" -gt 0
hm_ok "layers marked: $(hm_enf_counter "overlay layers' files, named through the overlay") layer opens named through the overlay, $(hm_enf_counter "overlay copy-ups let through (the overlay's own)") copy-ups let through"

# Both: refused at start, naming the two marks (the kernel would open
# the layer's file for the daemon's event fd and wait for the daemon).
rc=0
timeout 20 "$HISTMAC" enforce -p "$POL" --mark "$r" --mark "$u" \
	--mode enforcing >"$HM_TMP/both.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || [ "$rc" = 3 ] || hm_fail "both marked: exit $rc: $(cat "$HM_TMP/both.out")"
grep -q -- "--mark $r and --mark $u: the second is the file system of a layer" "$HM_TMP/both.out" ||
	hm_fail "both marked: not refused so: $(cat "$HM_TMP/both.out")"
hm_ok "both marked: refused at start (exit $rc), the two marks named"
