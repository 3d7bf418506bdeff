#!/bin/sh
# File operations, each by its own coreutils program: create, write,
# append, rename, link, symlink, chmod, truncate, mkdir, rmdir, unlink.
set -e
d=/tmp/hm-files
mkdir $d
mkdir $d/sub
touch $d/a
echo data >$d/b
echo more >>$d/b
mv $d/a $d/a2
ln $d/b $d/b-hard
ln -s $d/b $d/b-sym
chmod 600 $d/b
truncate -s 1 $d/b
cat $d/b-sym >/dev/null
rm $d/b-hard $d/b-sym
rm $d/a2
rmdir $d/sub
mkfifo $d/fifo
rm $d/fifo
