#!/bin/bash
# tests/data/record.sh - record the audit snippets in tests/data/ with the
# real auditd of this machine (see README).  Needs root, auditd and a built
# histmac:  HISTMAC=/tmp/b/histmac HM_BUILD=/tmp/b bash tests/data/record.sh [OUTDIR [STEP...]]
# Each step of tests/e2e/workload.c runs under a private auditd with
# `histmac rules` loaded; the records of the events the step caused (its
# own process and children, loader noise left out) go to OUTDIR/STEP.log.
# Step mv-dir runs coreutils' `mv FILE DIR/` instead (dirfd-rename.log).
# STEP...: only these (default: all).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../e2e/lib.sh
. "$here/../e2e/lib.sh"
out=${1:-$here}
shift $(($# > 0))
steps=${*:-exec relexec script bigargv file relfile fifo symlink net signal crash mount mv-dir}
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

# STEP OUT EXE CMD...: run CMD, wait for the marker, keep the slice of log
# it wrote: the events of programs named like the regex EXE, as OUT.log
record_cmd() {
	local step=$1 name=$2 exe=$3 from to
	shift 3
	hm_audit_marker >/dev/null
	from=$(stat -c %s "$HM_AUDIT_LOG")
	"$@"
	hm_audit_marker >/dev/null
	to=$(stat -c %s "$HM_AUDIT_LOG")
	tail -c +$((from + 1)) "$HM_AUDIT_LOG" | head -c $((to - from)) \
		>"$HM_TMP/$step.slice"
	# serials of events by the workload and the programs it ran
	# (the crash is a record without syscall), without the dynamic
	# loader's and locale opens
	"$HISTMAC" events -i "$HM_TMP/$step.slice" |
		grep -v -E $'\t(/etc/ld\\.so|/lib/|/usr/lib/|/lib64/|/usr/share/locale)' |
		HM_EXE=$exe awk -F'\t' '$17 ~ ENVIRON["HM_EXE"] ||
			($4 == "other" && $16 == "workload") {print $2}' \
		>"$HM_TMP/$step.serials"
	grep -E ":($(paste -sd'|' "$HM_TMP/$step.serials")\))" \
		"$HM_TMP/$step.slice" >"$out/$name.log" || true
	echo "$name: $(wc -l <"$out/$name.log") records"
}

# `mv FILE DIR/` (coreutils 9.1): renameat2 to "DIR/" fails with EEXIST,
# then mv opens DIR (O_PATH) and renames into it relative to that fd
record_mv() {
	mkdir -p "$work/box"
	echo mail >"$work/in.1"
	record_cmd mv-dir dirfd-rename '/mv$' mv "$work/in.1" "$work/box/"
}

for s in $steps; do
	case $s in
	mv-dir) record_mv ;;
	*) record_cmd "$s" "$s" '(workload|true|echo|dash)$' \
		"$HM_WORKLOAD" "$s" "$work" 47000 ;;
	esac
done
