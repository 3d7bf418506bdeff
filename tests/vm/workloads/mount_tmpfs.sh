#!/bin/sh
# A mount of a tmpfs, a file written in it, the unmount.
set -e
mkdir -p /tmp/hm-mnt
mount -t tmpfs -o size=1m hm-tmpfs /tmp/hm-mnt
echo x >/tmp/hm-mnt/file
umount /tmp/hm-mnt
rmdir /tmp/hm-mnt
