#!/bin/bash
# t_enforce_use.sh - issue 23: `histmac enforce --record-use` counts each
# access an entry allowed, with the time of the last, into the policy
# directory's histmac_entries.conf: added to the counts already there,
# saved periodically, after a SIGHUP reload and at stop; an edit of the
# policy made while it runs survives its saves, and so do the counts
# another writer added meanwhile; a policy with errors (run permissive)
# is never saved over for counts.  Opens the decision
# cache answers count as well as decided ones, an open two entries allow
# together counts both, a denied open counts nothing, and an entry never
# used is listed by `histmac stats --unused`.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_need jq
hm_enf_setup
H="<kernel> $T/helper"
dp=$POL/domain_policy.conf
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

<kernel> $T/helper
use_profile 3
file read $T/a
file read $T/b
file write $T/b\\*
file read $T/c
EOP
# what an earlier writer (check --record-use) counted: 5 uses of "read a"
printf '%s\nquiet 0\n0 0 5 1000 file read %s/a\n' "$H" "$T" \
	>"$POL/histmac_entries.conf"

# uses ENTRY: "USES USED" of that entry of $H in the side file (0 0: none)
uses() {
	awk -v d="$H" -v e="$1" '/^</ { cur = $0; next }
		cur == d && substr($0, index($0, $5)) == e { print $3, $4; f = 1 }
		END { if (!f) print 0, 0 }' "$POL/histmac_entries.conf"
}
# want ENTRY N WHEN: ENTRY was used N times, the last at or after $t0
want() {
	local u t
	read -r u t <<<"$(uses "$1")"
	[ "$u" = "$2" ] ||
		hm_enf_fail "$3: '$1' used $u times, want $2 ($(cat "$POL/histmac_entries.conf"))"
	[ "$2" = 0 ] && return 0
	[ "$t" -ge "$t0" ] && [ "$t" -le "$(date +%s)" ] ||
		hm_enf_fail "$3: '$1' last used at $t, not during the test (from $t0)"
}
# settle ENTRY N: wait (at most 20 s) for a save that counts N uses
settle() {
	hm_wait_for "[ \"\$(uses '$1' | cut -d' ' -f1)\" = $2 ]" 200 || true
}
saves() { grep -c "policy saved to $POL" "$DLOG" || true; }

t0=$(date +%s)
hm_enf_start --record-use --save-interval 2
hm_enf_ok "$T/helper" loop 3 "$T/a"		# decided once, cached twice
hm_enf_ok "$T/helper" open rdwr "$T/b"	# read b, and write $T/b\*
hm_enf_eperm "$T/helper" open trunc "$T/c"	# read c, but no truncate
hm_enf_eperm "$T/helper" exec "$T/other"	# no execute
settle "file read $T/a" 8		# (maybe in more saves than one)
settle "file read $T/b" 1
settle "file write $T/b\\*" 1
want "file read $T/a" 8 "periodic save"
want "file read $T/b" 1 "periodic save"
want "file write $T/b\\*" 1 "periodic save"
want "file read $T/c" 0 "periodic save"
hm_ok "allowed opens (decided and cached) are counted, added to the directory's"

# another writer (check --record-use) counts 100 uses of "read b" while
# the enforcer has nothing to save (so no save of its own races this
# one); its next save keeps them
awk -v d="$H" -v e="file read $T/b" '/^</ { cur = $0 }
	cur == d && substr($0, index($0, $5)) == e { $3 += 100 } { print }' \
	"$POL/histmac_entries.conf" >"$HM_TMP/entries"
mv "$HM_TMP/entries" "$POL/histmac_entries.conf"
hm_enf_ok "$T/helper" read "$T/a"
settle "file read $T/a" 9
want "file read $T/a" 9 "save after another writer"
want "file read $T/b" 101 "save after another writer"
hm_ok "what another writer counted meanwhile stays"

# the administrator adds an entry while the enforcer runs; a use is
# counted; the periodic save finds the edit, reloads, and saves both
printf 'file read %s/unlearned\n' "$T" >>"$dp"
hm_enf_ok "$T/helper" read "$T/a"
settle "file read $T/a" 10
want "file read $T/a" 10 "save after an edit"
grep -qxF "file read $T/unlearned" "$dp" ||
	hm_enf_fail "the administrator's entry is gone: $(cat "$dp")"
hm_enf_log_has "was edited: reloading it before saving"
hm_ok "an edit made while counting survives the save, and the counts too"

# SIGHUP (no periodic save now): the reload carries what was counted
# and saves it
hm_enf_stop
hm_enf_start --record-use --save-interval 600
hm_enf_ok "$T/helper" read "$T/unlearned"
kill -HUP "$DPID"
hm_wait_for "[ \$(saves) -gt 0 ]" 200 || hm_enf_fail "no save after SIGHUP"
hm_enf_log_has "policy reloaded"
want "file read $T/unlearned" 1 "SIGHUP"
want "file read $T/a" 10 "SIGHUP"

# stop: the last save has the last uses
hm_enf_ok "$T/helper" loop 2 "$T/b"
hm_enf_stop
want "file read $T/b" 103 "stop"
want "file read $T/a" 10 "stop"
grep -qxF "file read $T/unlearned" "$dp" || hm_enf_fail "edit lost at stop"
[ ! -e "$POL/.histmac.lock" ] || hm_enf_fail "the lock file outlived the enforcer"
hm_ok "SIGHUP and stop save what was counted"

# stats --unused: only the entry nothing used
"$HISTMAC" stats -p "$POL" --unused 1 >"$HM_TMP/unused" ||
	hm_enf_fail "stats --unused failed: $(cat "$HM_TMP/unused")"
grep -v '^#' "$HM_TMP/unused" | cut -f4 >"$HM_TMP/unused.e"
printf 'file read %s/c\n' "$T" | cmp -s - "$HM_TMP/unused.e" ||
	hm_enf_fail "stats --unused lists: $(cat "$HM_TMP/unused")"
"$HISTMAC" stats -p "$POL" --unused 1 --format json >"$HM_TMP/unused.json"
jq -e --arg d "$H" --arg e "file read $T/c" \
	'[.unused[] | [.domain, .entry, .uses, .last_used]] == [[$d, $e, 0, 0]]' \
	"$HM_TMP/unused.json" >/dev/null ||
	hm_enf_fail "stats --unused --format json: $(cat "$HM_TMP/unused.json")"
hm_ok "stats --unused (text and JSON) lists the entry never used, and only it"

# a policy with an error, enforced permissive: counts are not saved over
# it (a save would drop the bad line)
printf 'file bogus %s/a\n' "$T" >>"$dp"
cp "$dp" "$HM_TMP/broken"
cp "$POL/histmac_entries.conf" "$HM_TMP/entries.before"
hm_enf_start --record-use --save-interval 1 --mode permissive
hm_enf_ok "$T/helper" read "$T/a"
sleep 2.5				# a periodic save would be due
hm_enf_stop
cmp -s "$dp" "$HM_TMP/broken" || hm_enf_fail "a policy with errors was saved over"
cmp -s "$POL/histmac_entries.conf" "$HM_TMP/entries.before" ||
	hm_enf_fail "counts saved beside a policy with errors"
hm_enf_log_has "use counts not saved: the policy has errors"
hm_ok "a policy with errors keeps its text; the counts are not saved"
