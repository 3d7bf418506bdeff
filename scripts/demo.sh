#!/bin/sh
# The README's first command (make demo) ends here: learn a policy from the
# bundled sample audit log, write it in TOMOYO 2.6 and 2.1 syntax, draw the
# domain tree, write the HTML report, and check the log against the policy.
# usage: scripts/demo.sh HISTMAC OUTDIR
set -eu
histmac=$1
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
log=$src/samples/audit/apache2-sysv.log

rm -rf "$out"
mkdir -p "$out"
step() { printf '\n== %s\n' "$*"; }

step "learn from $log (the audit trail of /etc/init.d/apache2 start; curl; stop)"
"$histmac" learn -p "$out/policy" -i "$log"

step "the domain tree (the 2007 posting's shape)"
"$histmac" tree -p "$out/policy" --format text

step "the apache2 domain, as the 2007 posting wrote it (TOMOYO 2.1)"
"$histmac" export -p "$out/policy" --format tomoyo-2.1 -o "$out/policy-2.1" >/dev/null
awk '/^<kernel>.* \/usr\/sbin\/apache2ctl \/usr\/sbin\/apache2$/ { on = 1; print; next }
     /^<kernel>/ { on = 0 } on && /apache2\.conf|pid|allow_network/' \
	"$out/policy-2.1/domain_policy.conf"

step "suggestions for names that change from run to run"
"$histmac" patternize -p "$out/policy"

step "pictures and the report"
"$histmac" tree -p "$out/policy" -o "$out/domains.svg"
"$histmac" report -p "$out/policy" -o "$out/report"
echo "$out/domains.svg"
echo "$out/report/index.html"

step "check the same log against the learned policy (expect no violations)"
"$histmac" check -p "$out/policy" -i "$log"

step "done: $out/policy (TOMOYO 2.6), $out/policy-2.1, $out/domains.svg, $out/report/"
