#!/bin/sh
# The bundled apache2 SysV chain: /etc/init.d/apache2 -> apache2ctl ->
# apache2, a page fetched over loopback, then the stop.  The guest's
# /var/log is an empty tmpfs: the log directory a package install makes
# is made here.
set -e
mkdir -p /var/log/apache2
/etc/init.d/apache2 start
i=0
until curl -sf -o /dev/null http://127.0.0.1/; do
	i=$((i + 1)); [ $i -lt 100 ] || exit 1; sleep 0.2
done
/etc/init.d/apache2 stop
