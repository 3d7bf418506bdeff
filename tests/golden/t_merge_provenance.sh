#!/bin/bash
# t_merge_provenance.sh - a fleet learned per host, merged: 20 host
# policies merged in random orders and random groupings (merges of
# merges) give byte-identical policies and provenance; re-merging a host
# changes no provenance; provenance.conf says how many hosts had each
# entry, beside TOMOYO's files (tomoyo-checkpolicy still clean); stats
# --rare and the report list the entries one host alone had.
. "$(dirname "$0")/lib.sh"
data=$HM_SRC/tests/data
RANDOM=14	# the same shuffles every run; a failure can be replayed
mkdir -p "$tmp/log"

# one policy per log, then each host: a mix of them (its own name)
for log in apache2:$HM_SRC/samples/audit/apache2-sysv.log exec:$data/exec.log \
	   file:$data/file.log net:$data/net.log mount:$data/mount.log; do
	"$HISTMAC" learn -q -p "$tmp/log/${log%%:*}" -i "${log#*:}" 2>/dev/null
done
hosts=()
mkdir -p "$tmp/hosts"
for i in $(seq -w 1 20); do
	parts=("$tmp/log/apache2")
	[ $((10#$i % 2)) = 0 ] && parts+=("$tmp/log/exec")
	[ $((10#$i)) -le 10 ] && parts+=("$tmp/log/file")
	[ $((10#$i % 3)) = 0 ] && parts+=("$tmp/log/net")
	[ "$i" = 07 ] && parts+=("$tmp/log/mount")
	"$HISTMAC" merge "${parts[@]}" -o "$tmp/hosts/host$i" >/dev/null
	rm "$tmp/hosts/host$i/provenance.conf"	# a host's own learning
	hosts+=("$tmp/hosts/host$i")
done

"$HISTMAC" merge "${hosts[@]}" -o "$tmp/ref" >/dev/null
prov=$tmp/ref/provenance.conf
[ "$(sed -n 's/^hosts\t//p' "$prov" | wc -w)" = 20 ] || die "not 20 hosts"

shuffle() { local a=("$@") i j t; for ((i = ${#a[@]} - 1; i > 0; i--)); do
	j=$((RANDOM % (i + 1))); t=${a[i]}; a[i]=${a[j]}; a[j]=$t; done; echo "${a[@]}"; }
for trial in $(seq 1 6); do
	read -ra order <<<"$(shuffle "${hosts[@]}")"
	# cut the shuffled hosts into groups of 1-6, merge each group, then
	# merge the groups (shuffled), in trial 4-6 through one more level
	groups=() g=0 i=0
	mkdir -p "$tmp/t$trial"
	while [ "$i" -lt 20 ]; do
		n=$((1 + RANDOM % 6))
		g=$((g + 1))
		"$HISTMAC" merge "${order[@]:i:n}" -o "$tmp/t$trial/g$g" >/dev/null
		groups+=("$tmp/t$trial/g$g")
		i=$((i + n))
	done
	read -ra groups <<<"$(shuffle "${groups[@]}")"
	if [ "$trial" -gt 3 ] && [ "${#groups[@]}" -gt 2 ]; then
		"$HISTMAC" merge "${groups[@]:0:2}" -o "$tmp/t$trial/pair" >/dev/null
		groups=("$tmp/t$trial/pair" "${groups[@]:2}")
	fi
	"$HISTMAC" merge "${groups[@]}" -o "$tmp/t$trial/all" >/dev/null
	diff -r "$tmp/ref" "$tmp/t$trial/all" >&2 ||
		die "trial $trial (${#groups[@]} groups) differs from the plain merge"
done

# idempotent provenance: a host merged twice, a merge merged with itself
"$HISTMAC" merge "$tmp/ref" "$tmp/hosts/host05" -o "$tmp/again" >/dev/null
cmp "$prov" "$tmp/again/provenance.conf" || die "re-merging host05 changed provenance"
"$HISTMAC" merge "$tmp/ref" "$tmp/ref" -o "$tmp/self" >/dev/null
cmp "$prov" "$tmp/self/provenance.conf" || die "merging with itself changed provenance"
strip() { sed 's/ events=[0-9]*//' "$1"; }
diff <(strip "$tmp/ref/domain_policy.conf") <(strip "$tmp/self/domain_policy.conf") >&2 ||
	die "merging with itself changed entries"

# counts: apache2's entries on all 20, mount.log's on host07 alone
grep -q $'^20\t<kernel> /etc/init.d/apache2\tfile execute /usr/bin/cat\t' "$prov" ||
	die "an apache2 entry is not on 20 hosts"
awk -F'\t' '$1 != split($4, h, ",") && !/^#|^hosts/ {bad = 1} END {exit bad}' "$prov" ||
	die "a count is not its number of hosts"
"$HISTMAC" stats -p "$tmp/ref" --rare 2 >"$tmp/rare"
[ "$(grep -vc '^#' "$tmp/rare")" -gt 0 ] || die "no rare entries"
grep -v '^#' "$tmp/rare" | grep -qv $'^1/20\thost07\t' && die "a rare entry not of host07 alone"
mount_entry=$(grep -m1 '^file mount ' "$tmp/log/mount/domain_policy.conf" | cut -d' ' -f1-3)
[ -n "$mount_entry" ] || die "mount.log learned no mount"
grep -qF "$mount_entry" "$tmp/rare" || die "host07's mount entry is not listed as rare"
"$HISTMAC" stats -p "$tmp/ref" --rare 21 | grep -q '^# [0-9]* of \([0-9]*\) entries on fewer than 21 of 20 hosts' ||
	die "--rare 21 header"

# beside the policy, not in it
! grep -rq host07 "$tmp/ref"/*_policy.conf "$tmp/ref/profile.conf" || die "host names in TOMOYO files"
out=$(tomoyo-checkpolicy d <"$tmp/ref/domain_policy.conf" 2>&1) || true
grep -q ' 0 Error *0 Warning' <<<"$out" || die "tomoyo-checkpolicy: $out"
"$HISTMAC" report -p "$tmp/ref" -o "$tmp/rep" >/dev/null
k=$(grep -vc '^#' "$tmp/rare")
grep -q "<section id=\"rare\"><h3>$k entries on fewer than 2 of 20 hosts" "$tmp/rep/index.html" ||
	die "the report does not list the $k rare entries"
[ "$(grep -o '<tr><td>host07</td>' "$tmp/rep/index.html" | wc -l)" = "$k" ] ||
	die "report rows differ from stats --rare"

# provenance.conf is saved in the policy's own commit: a merge killed at
# any point of its save leaves policy and provenance both old or both new
# (a reader rolls a committed set forward first).
"$HISTMAC" merge "${hosts[@]:0:10}" -o "$tmp/c-old" >/dev/null
"$HISTMAC" merge "${hosts[@]}" -o "$tmp/c-new" >/dev/null
pair() { cat "$1/domain_policy.conf" "$1/provenance.conf" 2>&1 | sha256sum; }
old=$(pair "$tmp/c-old")
new=$(pair "$tmp/c-new")
[ "$old" != "$new" ] || die "the two merges do not differ"
# the kills fall over the whole run of a merge saving slowly (20 ms per
# step of its commit), timed here: from its start to past its end
t0=$(date +%s%N)
HISTMAC_TEST_SAVE_DELAY_US=20000 "$HISTMAC" merge "${hosts[@]}" -o "$tmp/c-time" \
	>/dev/null
ms=$((($(date +%s%N) - t0) / 1000000))
seen=
for pct in 0 10 20 30 40 50 60 70 75 80 85 90 95 150; do
	t=$(awk -v ms="$ms" -v p="$pct" 'BEGIN { printf "%.3f", ms * p / 100000 }')
	rm -rf "$tmp/c"
	cp -a "$tmp/c-old" "$tmp/c"
	HISTMAC_TEST_SAVE_DELAY_US=20000 "$HISTMAC" merge "${hosts[@]}" \
		-o "$tmp/c" --force >/dev/null 2>&1 &
	pid=$!
	sleep "$t"
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	"$HISTMAC" stats -p "$tmp/c" >/dev/null 2>&1 || true
	got=$(pair "$tmp/c")
	case $got in
	"$old") seen="$seen old" ;;
	"$new") seen="$seen new" ;;
	*) fail "killed after ${t}s of ${ms} ms: policy and provenance disagree" ;;
	esac
done
case $seen in
*old*new*) ;;
*) fail "the kills did not fall on both sides of the commit:$seen" ;;
esac

finish "t_merge_provenance ($(grep -vc '^#\|^hosts' "$prov") entries, $k rare)"
