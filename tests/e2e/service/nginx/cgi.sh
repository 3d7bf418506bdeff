# shellcheck shell=sh
# Sourced by the CGI scripts: the query's parameters, the service's data.
# No URL decoding: the workload sends plain words.
DATA=/srv/histmac-e2e/data
param() {
	printf '%s\n' "$QUERY_STRING" | tr '&' '\n' | sed -n "s/^$1=//p" | head -n 1
}
header() {
	printf 'Content-Type: text/plain\r\n\r\n'
}
