#!/bin/bash
# tests/data/record.sh - record the audit snippets in tests/data/ with the
# real auditd of this machine (see README).  Needs root, auditd and a built
# histmac:  HISTMAC=/tmp/b/histmac HM_BUILD=/tmp/b bash tests/data/record.sh [OUTDIR]
# Each step of tests/e2e/workload.c runs under a private auditd with
# `histmac rules` loaded; the records of the events the step caused (its
# own process and children, loader noise left out) go to OUTDIR/STEP.log.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../e2e/lib.sh
. "$here/../e2e/lib.sh"
out=${1:-$here}
mkdir -p "$out"
hm_build_workload
hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"
work=/tmp/hmrec
rm -rf "$work"
mkdir -p "$work"
# records carry the cwd: record from a neutral directory, not the tree
mkdir -p /srv/histmac-demo
cd /srv/histmac-demo

# STEP: run it, wait for the marker, keep the slice of log it wrote
record() {
	local step=$1 from to
	hm_audit_marker >/dev/null
	from=$(stat -c %s "$HM_AUDIT_LOG")
	"$HM_WORKLOAD" "$step" "$work" 47000
	hm_audit_marker >/dev/null
	to=$(stat -c %s "$HM_AUDIT_LOG")
	tail -c +$((from + 1)) "$HM_AUDIT_LOG" | head -c $((to - from)) \
		>"$HM_TMP/$step.slice"
	# serials of events by the workload and the programs it ran
	# (the crash is a record without syscall), without the dynamic
	# loader's and locale opens
	"$HISTMAC" events -i "$HM_TMP/$step.slice" |
		grep -v -E $'\t(/etc/ld\\.so|/lib/|/usr/lib/|/lib64/|/usr/share/locale)' |
		awk -F'\t' '$17 ~ /(workload|true|echo|dash)$/ ||
			($4 == "other" && $16 == "workload") {print $2}' \
		>"$HM_TMP/$step.serials"
	grep -E ":($(paste -sd'|' "$HM_TMP/$step.serials")\))" \
		"$HM_TMP/$step.slice" >"$out/$step.log" || true
	echo "$step: $(wc -l <"$out/$step.log") records"
}

for s in exec relexec script bigargv file relfile fifo symlink net signal crash mount; do
	record "$s"
done
