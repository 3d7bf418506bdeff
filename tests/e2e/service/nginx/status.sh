#!/bin/sh
# GET ?fmt=F: the date in a format, the uptime and the backend's health.
# The format goes through eval (the injected exec).
. /srv/histmac-e2e/cgi-bin/cgi.sh
header
fmt=$(param fmt)
eval "date +%$fmt"
uptime
curl -s http://127.0.0.1:8082/health
