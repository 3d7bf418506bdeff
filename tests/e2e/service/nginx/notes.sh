#!/bin/sh
# GET ?name=N: a note.  The name is not checked (the traversal attack).
. /srv/histmac-e2e/cgi-bin/cgi.sh
header
name=$(param name)
if [ -z "$name" ]; then
	ls "$DATA/notes"
else
	cat "$DATA/notes/$name"
fi
