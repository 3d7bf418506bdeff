#!/bin/sh
# POST ?name=N: keep the body as an upload.  The name is not checked (the
# dropped web shell).
. /srv/histmac-e2e/cgi-bin/cgi.sh
header
name=$(param name)
cat >"$DATA/uploads/$name"
wc -c <"$DATA/uploads/$name"
