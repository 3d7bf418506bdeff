#!/bin/sh
# GET ?name=N: the note /srv/www/data/N.  No check of the name: the
# traversal (name=../secret/key.pem) is the attack the policy never saw.
printf 'Content-Type: text/plain\r\n\r\n'
name=$(printf '%s\n' "$QUERY_STRING" | sed -n 's/^name=//p')
cat "/srv/www/data/$name"
