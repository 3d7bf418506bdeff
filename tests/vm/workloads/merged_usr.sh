#!/bin/sh
# Programs by their pre-merged-/usr names: /bin and /sbin are symlinks to
# usr/bin and usr/sbin on every current Debian.  TOMOYO names a program by
# its directory resolved and its last component as asked
# (/bin/busybox -> /usr/bin/busybox); busybox applets run as symlinks
# (a temporary link named cat) are one program with several names.
set -e
d=/tmp/hm-merged
mkdir -p $d
/bin/cat /etc/hostname >$d/out
/bin/sh -c '/bin/true'
/sbin/ldconfig -p >/dev/null
/bin/busybox echo hello >>$d/out
ln -s /bin/busybox $d/wc
$d/wc -l $d/out
/bin/rm -r $d
