#!/bin/sh
# man-from-help.sh - write histmac-COMMAND.1 for every subcommand from its
# --help text, so each page says exactly what the installed binary does.
# usage: man-from-help.sh HISTMAC OUTDIR [SKIP...]
# SKIP: commands that have a hand-written page (man/histmac-events.1).
set -eu
bin=$1 out=$2
shift 2
mkdir -p "$out"
ver=$("$bin" --version | awk '{print $2}')

# the command list of `histmac --help`: "  NAME  summary"
"$bin" --help | awk '/^Commands:/ {on=1; next} on && /^  [a-z]/ {print} on && /^$/ {exit}' |
while read -r cmd summary; do
	for s in "$@"; do [ "$s" = "$cmd" ] && continue 2; done
	up=$(echo "$cmd" | tr a-z A-Z)
	{
		printf '.TH HISTMAC-%s 1 "" "histmac %s" "histmac manual"\n' "$up" "$ver"
		printf '.SH NAME\nhistmac-%s \\- %s\n' "$cmd" "$summary"
		printf '.SH DESCRIPTION\n'
		printf 'This page is the text of\n.BR "histmac %s \\-\\-help" .\n' "$cmd"
		printf 'Options also come from\n.BR histmac.conf (5);\nthe command line wins.\n'
		printf '.PP\n.nf\n'
		# roff: backslashes doubled, a leading dot or quote escaped
		"$bin" "$cmd" --help | sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/-/\\-/g'
		printf '.fi\n.SH SEE ALSO\n.BR histmac (1),\n.BR histmac.conf (5)\n'
	} >"$out/histmac-$cmd.1"
done
