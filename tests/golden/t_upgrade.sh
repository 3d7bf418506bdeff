#!/usr/bin/env bash
# t_upgrade.sh - what changed with a package upgrade.  Two versions of a
# small package are built here (dpkg-deb -b) owning the program the
# recorded logs in tests/data run (/tmp/hm-e2e.XquIVi/workload), and
# installed with dpkg into an image (dpkg --root); the logs are learned
# against that image (--resolve-root), as logs from that host would be.
#   1. version 1.0 installed: learn exec.log -> the domain is stamped 1.0
#   2. upgrade to 2.0: check file.log against that policy -> the new
#      accesses are violations marked "upgraded since learned 1.0 -> 2.0"
#   3. learn file.log into a copy -> stamped 2.0; diff groups what it
#      added under "# package hm-workload 1.0 -> 2.0"
#   4. the files entries name: hm-data 1.0 ships table-1.0, 2.0 renames it
#      table-2.0 and adds a program reading it; a program of another
#      package (hm-reader) reads the table.  Logs written here
#      (auditgen.sh) are learned before and after the upgrade: the files
#      are recorded with their package ("object" lines), and diff puts
#      the removed and added reads of both programs under "# package
#      hm-data 1.0 -> 2.0", none under hm-reader's own package.
# Needs dpkg and dpkg-deb, and root (dpkg unpacks root-owned files).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/auditgen.sh"
data=$HM_SRC/tests/data
prog=/tmp/hm-e2e.XquIVi/workload
dom="<kernel> $prog"

for t in dpkg dpkg-deb; do
	command -v "$t" >/dev/null || die "$t missing (scripts/deps.sh test)"
done
[ "$(id -u)" = 0 ] || { echo "t_upgrade: needs root for dpkg --root, skipped" >&2; exit 77; }

deb() {	# PACKAGE VERSION FILE...: build PACKAGE_VERSION.deb shipping
	# each FILE (a script; a file under /usr/share is data)
	local pkg=$1 ver=$2 d=$tmp/pkg-$1-$2 f
	shift 2
	for f; do
		mkdir -p "$d$(dirname "$f")"
		printf '#!/bin/sh\necho %s\n' "$ver" >"$d$f"
		case $f in /usr/share/*) chmod 644 "$d$f" ;; *) chmod 755 "$d$f" ;; esac
	done
	mkdir -p "$d/DEBIAN"
	printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: histmac tests <tests@example.org>\nDescription: a package of t_upgrade\n' \
		"$pkg" "$ver" >"$d/DEBIAN/control"
	dpkg-deb --root-owner-group -b "$d" "$tmp/${pkg}_$ver.deb" >/dev/null ||
		die "dpkg-deb -b $pkg $ver"
}
image() {	# ROOT: an empty dpkg database
	mkdir -p "$1/var/lib/dpkg/info" "$1/var/lib/dpkg/updates"
	: >"$1/var/lib/dpkg/status"
}
root=$tmp/root
install() {	# VERSION [PACKAGE [ROOT]]
	dpkg --root="${3:-$root}" --force-not-root --force-script-chrootless \
		-i "$tmp/${2:-hm-workload}_$1.deb" >"$tmp/dpkg.out" 2>&1 ||
		{ cat "$tmp/dpkg.out" >&2; die "dpkg -i ${2:-hm-workload} $1"; }
}
deb hm-workload 1.0 "$prog"
deb hm-workload 2.0 "$prog"
image "$root"
install 1.0

learn() {	# DIR LOG [ROOT]
	"$HISTMAC" learn -q --resolve-root "${3:-$root}" -p "$1" -i "$2" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; die "learn $2 exited $?"; }
}
package_of() {	# DIR: the package line of the workload's domain
	awk -v d="$dom" '/^</ { cur = $0 } cur == d && /^package / { print $2, $3 }' \
		"$1/histmac_entries.conf"
}
learn "$tmp/v1" "$data/exec.log"
[ "$(package_of "$tmp/v1")" = "hm-workload 1.0" ] ||
	die "learned with 1.0 installed, stamped '$(package_of "$tmp/v1")'"

install 2.0
expect_rc 1 "$HISTMAC" check --resolve-root "$root" -p "$tmp/v1" -i "$data/file.log"
awk -v d="$dom" '$0 == d { getline; print; exit }' "$tmp/out" >"$tmp/mark"
grep -qx '# upgraded since learned: package hm-workload 1.0 -> 2.0' "$tmp/mark" ||
	fail "check does not mark the violations: $(head -20 "$tmp/out")"
expect_rc 1 "$HISTMAC" check --resolve-root "$root" -p "$tmp/v1" -i "$data/file.log" -f json
jq -e --arg d "$dom" '[.violations[] | select(.domain == $d)] | length > 0 and
	all(.upgraded == {"package": "hm-workload", "learned": "1.0", "now": "2.0"})' \
	"$tmp/out" >/dev/null || fail "JSON violations lack .upgraded"
jq -e --arg d "$dom" 'all(.violations[] | select(.domain != $d); .upgraded == null)' \
	"$tmp/out" >/dev/null || fail "JSON: other domains marked upgraded"

cp -r "$tmp/v1" "$tmp/v2"
learn "$tmp/v2" "$data/file.log"
[ "$(package_of "$tmp/v2")" = "hm-workload 2.0" ] ||
	fail "learned with 2.0 installed, stamped '$(package_of "$tmp/v2")'"
expect_rc 1 "$HISTMAC" diff "$tmp/v1" "$tmp/v2"
# The block: from the package line to the next package line or the end.
awk '/^# package hm-workload 1.0 -> 2.0$/ { on = 1; next } /^# package / { on = 0 } on' \
	"$tmp/out" >"$tmp/block"
grep -qx "$dom" "$tmp/block" || fail "diff: the domain is not under its package: $(cat "$tmp/out")"
added=$(grep -c '^+file ' "$tmp/block")
[ "$added" -gt 3 ] || fail "diff: $added additions under the package"
[ "$(grep -c '^[+-]file ' "$tmp/out")" = "$added" ] ||
	fail "diff: changes outside the package's block"

# 4. A file another package owns, renamed by that package's upgrade.
table1=/usr/share/hm-data/table-1.0 table2=/usr/share/hm-data/table-2.0
reader=/usr/bin/hm-reader newprog=/usr/bin/hm-data-read
deb hm-reader 1.0 "$reader"
deb hm-data 1.0 "$table1"
deb hm-data 2.0 "$table2" "$newprog"
img=$tmp/img
image "$img"
install 1.0 hm-reader "$img"
install 1.0 hm-data "$img"
{	# before: the reader reads table-1.0
	ag_start 500 /usr/sbin/hm-init
	ag_clone 500 501; ag_exec 501 "$reader"; ag_open 501 "$table1"
} >"$tmp/data1.log"
{	# after: the reader reads table-2.0, and so does the new program
	ag_start 500 /usr/sbin/hm-init
	ag_clone 500 501; ag_exec 501 "$reader"; ag_open 501 "$table2"
	ag_clone 500 502; ag_exec 502 "$newprog"; ag_open 502 "$table2"
} >"$tmp/data2.log"
learn "$tmp/d1" "$tmp/data1.log" "$img"
install 2.0 hm-data "$img"
learn "$tmp/d2" "$tmp/data2.log" "$img"
grep -qx "object hm-data 1.0 $table1" "$tmp/d1/histmac_entries.conf" ||
	fail "before: table-1.0 not recorded as hm-data 1.0's: $(grep ^object "$tmp/d1/histmac_entries.conf")"
grep -qx "object hm-data 2.0 $table2" "$tmp/d2/histmac_entries.conf" ||
	fail "after: table-2.0 not recorded as hm-data 2.0's: $(grep ^object "$tmp/d2/histmac_entries.conf")"
expect_rc 1 "$HISTMAC" diff "$tmp/d1" "$tmp/d2"
cp "$tmp/out" "$tmp/data.diff"
awk '/^# package hm-data 1.0 -> 2.0$/ { on = 1; next } /^# package / { on = 0 } on' \
	"$tmp/data.diff" >"$tmp/block"
# each domain's lines in the block: DOMAIN<TAB>LINE
awk '/^$/ { d = ""; next } d == "" { d = $0; sub(/^[+-]/, "", d); next }
	{ print d "\t" $0 }' "$tmp/block" >"$tmp/lines"
for want in "<kernel> $reader	-file read $table1" \
	    "<kernel> $reader	+file read $table2" \
	    "<kernel> $newprog	+file read $table2"; do
	grep -qxF "$want" "$tmp/lines" ||
		fail "diff: not under hm-data 1.0 -> 2.0: '$want'"
done
grep -q "^+<kernel> $newprog\$" "$tmp/block" ||
	fail "diff: the program hm-data 2.0 added is not in its block"
[ "$(grep -c '^[+-]' "$tmp/data.diff")" = "$(grep -c '^[+-]' "$tmp/block")" ] ||
	fail "diff: changes outside hm-data's block: $(cat "$tmp/data.diff")"
grep -q '^# package hm-reader' "$tmp/data.diff" &&
	fail "diff: a block for hm-reader, whose version did not change"
finish t_upgrade
