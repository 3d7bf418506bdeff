#!/usr/bin/env bash
# t_convergence.sh - is learning done, which entries are unused: what learn
# records per entry (histmac_entries.conf) over several days, on two hosts
# and their merge.  The logs are real ones (the sample, tests/data) with
# their timestamps moved to other days:
#   alpha: day 1 the sample; day 2 the sample and file.log; day 3 the sample
#   beta:  day 2 the sample and net.log; day 3 the sample
# stats must call the sample's domains quiet for 2 days and file.log's
# still learning (its last event taught something), count per day what
# was added, list file.log's entries as unused for a day, keep the stamps
# when a log is learned again, and merge the hosts (earliest learned time,
# uses summed, the fewer quiet events).  Per save (histmac_saves.conf):
#   gamma: one day, three saves: file.log, then net.log, then the sample
# stats must show what each save learned where per day lumps them, and
# a directory without the file (a merge, an older policy) loads without
# saves.  Expected outputs are in tests/golden/convergence/ (README.md
# says how to regenerate them).
. "$(dirname "$0")/lib.sh"
golden=$HM_SRC/tests/golden/convergence
sample=$HM_SRC/samples/audit/apache2-sysv.log
day=86400

# shift LOG DAYS: LOG with every audit time moved by DAYS days.
shift_log() {
	perl -pe "s/audit\((\d+)\./'audit('.(\$1 + $2 * $day).'.'/e" "$1"
}
learn() {	# DIR LOG...
	local dir=$1
	shift
	"$HISTMAC" learn -q --no-resolve -p "$dir" -i "$@" 2>/dev/null || die "learn $* exited $?"
}
for d in 5 4 3; do shift_log "$sample" -$d >"$tmp/sample-$d.log"; done
shift_log "$HM_SRC/tests/data/file.log" -4 >"$tmp/file-4.log"
shift_log "$HM_SRC/tests/data/net.log" -4 >"$tmp/net-4.log"
shift_log "$HM_SRC/tests/data/file.log" -5 >"$tmp/file-5.log"
shift_log "$HM_SRC/tests/data/net.log" -5 >"$tmp/net-5.log"

learn "$tmp/alpha" "$tmp/sample-5.log"
learn "$tmp/alpha" "$tmp/file-4.log" "$tmp/sample-4.log"
learn "$tmp/alpha" "$tmp/sample-3.log"
learn "$tmp/beta" "$tmp/net-4.log" "$tmp/sample-4.log"
learn "$tmp/beta" "$tmp/sample-3.log"
"$HISTMAC" merge "$tmp/alpha" "$tmp/beta" -o "$tmp/merged" >/dev/null ||
	die "merge exited $?"
for l in file-5 net-5 sample-5; do learn "$tmp/gamma" "$tmp/$l.log"; done

# Learning a log again changes no stamp and no count.
cp "$tmp/alpha/histmac_entries.conf" "$tmp/entries.before"
learn "$tmp/alpha" "$tmp/sample-3.log"
cmp -s "$tmp/entries.before" "$tmp/alpha/histmac_entries.conf" ||
	fail "learning day 3 again changed histmac_entries.conf"
[ "$(grep -vc '^#' "$tmp/alpha/histmac_saves.conf")" = 3 ] ||
	fail "alpha: not one save record per learn run: $(cat "$tmp/alpha/histmac_saves.conf")"
[ ! -e "$tmp/merged/histmac_saves.conf" ] || fail "merge wrote save records"

# convergence DIR: stats' convergence section.
convergence() {
	"$HISTMAC" stats -p "$1" --quiet-events 500 |
		sed -n '/^convergence/,/^names/p' | sed '$d'
}
check_golden() {	# NAME: $tmp/NAME against the golden file
	if [ "${HM_REGEN:-}" = 1 ]; then
		cp "$tmp/$1" "$golden/$1"
		return
	fi
	diff -u "$golden/$1" "$tmp/$1" || fail "$1 differs from golden"
}
convergence "$tmp/alpha" >"$tmp/alpha-stats.txt"
convergence "$tmp/merged" >"$tmp/merged-stats.txt"
convergence "$tmp/gamma" >"$tmp/gamma-stats.txt"
"$HISTMAC" stats -p "$tmp/gamma" --format json --quiet-events 500 |
	jq -S .convergence >"$tmp/gamma-convergence.json" ||
	fail "gamma: stats --format json is not JSON"
"$HISTMAC" stats -p "$tmp/alpha" --unused 1 >"$tmp/alpha-unused.txt" ||
	fail "stats --unused exited $?"
"$HISTMAC" stats -p "$tmp/merged" --unused 1 >"$tmp/merged-unused.txt"
"$HISTMAC" stats -p "$tmp/merged" --format json --quiet-events 500 |
	jq -S .convergence >"$tmp/merged-convergence.json" ||
	fail "stats --format json is not JSON"
for f in alpha-stats.txt alpha-unused.txt merged-stats.txt \
	 merged-unused.txt merged-convergence.json gamma-stats.txt \
	 gamma-convergence.json; do
	check_golden "$f"
done

# What the golden files say, asserted on their own.
s=$tmp/alpha-stats.txt
grep -q '^    quiet for 2 days (.*); last new 2026-11-28T.*; <kernel> /usr/sbin/apache2\|^    quiet for 2 days (.*); last new 2026-11-28T.*<kernel> /etc/init.d/apache2$' "$s" ||
	fail "alpha: the sample's init script is not quiet for 2 days"
grep -q '^    still learning[^;]*; last new 2026-11-29T.*; <kernel> .*/workload$' "$s" ||
	fail "alpha: file.log's domain (last taught on day 2) is not still learning"
grep -Eq '^    2026-11-30 +0, 0$' "$s" || fail "alpha: day 3 added something"
grep -Eq '^    2026-11-29 +[1-9][0-9]*, ' "$s" || fail "alpha: day 2 added nothing"
j=$("$HISTMAC" stats -p "$tmp/alpha" --format json)
[ "$(jq '[.convergence.days[].added] | add' <<<"$j")" = "$(jq .entries <<<"$j")" ] ||
	fail "alpha: the days' additions do not add up to the entries"
u=$tmp/alpha-unused.txt
[ "$(grep -vc '^#' "$u")" -gt 0 ] || fail "alpha: nothing unused for a day"
grep -v '^#' "$u" | grep -v '/workload	' && fail "alpha: entries used on day 3 listed unused"

# Per save: gamma's one day is three saves, each with its own log's
# entries; the saves add up to the day, and to the entries.
g=$tmp/gamma-convergence.json
[ "$(jq '.days | length' "$g")" = 1 ] || fail "gamma: not one day"
[ "$(jq '.saves | length' "$g")" = 3 ] || fail "gamma: not three saves"
[ "$(jq '[.saves[].added] | add' "$g")" = "$(jq '.days[0].added' "$g")" ] ||
	fail "gamma: the saves' additions are not the day's"
jq -e '[.saves[] | .added > 0 and .events > 0] | all' "$g" >/dev/null ||
	fail "gamma: a save that learned nothing"
jq -e '.quiet_saves == 0' "$g" >/dev/null || fail "gamma: the last save added nothing"
jq -e '[.domains[] | select(.domain | endswith("/workload")) | .saves[].save, .quiet_saves] == [1, 2, 1]' \
	"$g" >/dev/null || fail "gamma: file.log's and net.log's domain not learned in saves 1 and 2 alone"
grep -q '^    still learning (quiet for 1 save); .*; saves #1 +14, #2 +6; <kernel> .*/workload$' "$tmp/gamma-stats.txt" ||
	fail "gamma: the workload's verdict does not say it was quiet for the last save"
jq -e '[.domains[] | select(.domain == "<kernel> /usr/bin/curl") | .saves[].save, .quiet_saves] == [3, 0]' \
	"$g" >/dev/null || fail "gamma: the sample's curl not learned in save 3"
grep -q '^  new per save  *events, added, widened$' "$tmp/gamma-stats.txt" ||
	fail "gamma: no per-save table"
grep -q '^  new per save' "$tmp/merged-stats.txt" && fail "merged: a per-save table without saves"
learn "$tmp/gamma" "$tmp/sample-5.log"
[ "$(grep -vc '^#' "$tmp/gamma/histmac_saves.conf")" = 3 ] ||
	fail "gamma: learning a log again recorded a save"
# The auditd plugin's periodic saves record the same curve: the three
# logs on its stdin, apart by more than --save-interval.  The interval
# is longer than reading one log takes even under ASan on a loaded
# machine (at 1 s the sample's 1,938 events were once cut into two saves,
# whose additions did not add up to gamma's one save of it), and the
# gaps are longer than the interval.
{ cat "$tmp/file-5.log"; sleep 7; cat "$tmp/net-5.log"; sleep 7
  cat "$tmp/sample-5.log"; } |
	"$HISTMAC" learn -q --no-resolve -p "$tmp/plugin" --plugin \
	--save-interval 3 2>/dev/null || fail "learn --plugin exited $?"
"$HISTMAC" stats -p "$tmp/plugin" --format json | jq .convergence >"$tmp/pj"
[ "$(jq '.days | length' "$tmp/pj")" = 1 ] || fail "plugin: not one day"
[ "$(jq '[.saves[].time] | unique | length' "$tmp/pj")" -ge 3 ] ||
	fail "plugin: its periodic saves are not recorded: $(jq -c .saves "$tmp/pj")"
[ "$(jq '[.saves[].added] | add' "$tmp/pj")" = "$(jq '[.saves[].added] | add' "$g")" ] ||
	fail "plugin: its saves added other than gamma's: $(jq -c .saves "$tmp/pj")"
# at the sample's end, or the second after it when a save came within
# the last second (what was learned after it is stamped with the next)
t=$(jq '.saves[-1].time - $g[0].saves[-1].time' --slurpfile g "$g" "$tmp/pj")
[ "$t" = 0 ] || [ "$t" = 1 ] ||
	fail "plugin: the last save is not at the sample's end: $(jq -c .saves "$tmp/pj")"
# A save in the middle of a second: what the rest of that second teaches
# is the next save's (stamps are whole seconds).  The sample cut at 4/5,
# where a second has entries on both sides.
n=$(wc -l <"$tmp/sample-5.log")
{ head -n $((n * 4 / 5)) "$tmp/sample-5.log"; sleep 7
  tail -n +$((n * 4 / 5 + 1)) "$tmp/sample-5.log"; } |
	"$HISTMAC" learn -q --no-resolve -p "$tmp/cut" --plugin \
	--save-interval 3 2>/dev/null || fail "learn --plugin (cut) exited $?"
"$HISTMAC" stats -p "$tmp/cut" --format json | jq .convergence >"$tmp/cj"
[ "$(jq '.saves | length' "$tmp/cj")" -ge 2 ] ||
	fail "cut: not saved twice: $(jq -c .saves "$tmp/cj")"
[ "$(jq '[.saves[].added] | add' "$tmp/cj")" = "$(jq '.saves[2].added' "$g")" ] ||
	fail "cut: its saves added other than gamma's save of the sample: $(jq -c .saves "$tmp/cj")"
# and what stats gives each domain per save adds up to each save's count
for f in "$tmp/cj" "$tmp/pj"; do
	jq -e '[.saves[] | {save, added, widened}] ==
		[range(1; (.saves | length) + 1) as $s |
		 {save: $s,
		  added: ([.domains[].saves[] | select(.save == $s) | .added] | add // 0),
		  widened: ([.domains[].saves[] | select(.save == $s) | .widened] | add // 0)}]' \
		"$f" >/dev/null ||
		fail "$(basename "$f"): the domains' counts per save are not the saves': $(jq -c .saves "$f")"
done
# an older directory (no file) loads; a bad line is named and skipped
cp -r "$tmp/gamma" "$tmp/old"
rm "$tmp/old/histmac_saves.conf"
"$HISTMAC" stats -p "$tmp/old" --format json | jq -e '.convergence.saves == []' >/dev/null ||
	fail "a policy without histmac_saves.conf: saves not empty"
echo "12 x 3 4" >>"$tmp/gamma/histmac_saves.conf"
"$HISTMAC" stats -p "$tmp/gamma" >/dev/null 2>"$tmp/err" || fail "stats on a bad save line exited $?"
grep -q "histmac_saves.conf:7: .*expected TIME EVENTS ADDED WIDENED" "$tmp/err" ||
	fail "a bad save line is not named: $(cat "$tmp/err")"

# Within one day: quiet for events, from --quiet-events on (0: days only).
learn "$tmp/one" "$tmp/sample-5.log"
"$HISTMAC" stats -p "$tmp/one" --quiet-events 10 >"$tmp/one-10"
n=$(grep -c '^    quiet for [0-9]* events; ' "$tmp/one-10")
[ "$n" -gt 0 ] || fail "one day, --quiet-events 10: no domain quiet for events"
grep -Eq "^  domains quiet for events +$n\$" "$tmp/one-10" ||
	fail "one day: the count of domains quiet for events is not $n"
awk '/^    quiet for [0-9]+ events;/ && $3 < 10 { bad = 1 } END { exit !bad }' \
	"$tmp/one-10" && fail "one day: a domain quiet for fewer than 10 events"
grep -q 'days (' "$tmp/one-10" && fail "one day: a domain quiet for days"
"$HISTMAC" stats -p "$tmp/one" --quiet-events 0 | grep -q 'quiet for [0-9]* events;' &&
	fail "--quiet-events 0 still judges by events"

# The report: the curve drawn inline, the unused entries marked (only
# file.log's domain has any), nothing fetched.
"$HISTMAC" report -p "$tmp/alpha" -o "$tmp/report" --unused 1 >/dev/null ||
	fail "report exited $?"
page=$tmp/report/index.html
grep -q '<section id="convergence"><h3>Learning: 1 domains still learning, 18 quiet for days' "$page" ||
	fail "report: no convergence section"
tr '\n' ' ' <"$page" | grep -Eq '<section id="convergence">.*<svg .*<polyline ' ||
	fail "report: no curve"
[ "$(grep -Eo '"unused":\[[0-9][0-9,]*\]' "$page" | wc -l)" = 1 ] ||
	fail "report: unused entries marked in other than one domain"
grep -Eq '<script[^>]* src=|<link ' "$page" && fail "report: fetches something"
grep -q '<h3>3 saves, the last 1 with nothing new</h3>' "$page" ||
	fail "report: no curve per save for alpha's three saves"
[ "$(grep -o '<title>#[0-9] [0-9-]*: [0-9]* new' "$page" | wc -l)" = 3 ] ||
	fail "report: not one bar per save"

# Merge: the earliest learned time, uses summed.
entry() {	# DIR: the stamps of the init script's read of envvars
	awk '/^</ { d = $0 } d == "<kernel> /etc/init.d/apache2" &&
		/ file read \/etc\/apache2\/envvars$/ { print $1, $3 }' \
		"$1/histmac_entries.conf"
}
read -r la ua <<<"$(entry "$tmp/alpha")"
read -r lb ub <<<"$(entry "$tmp/beta")"
read -r lm um <<<"$(entry "$tmp/merged")"
[ "$la" -lt "$lb" ] && [ "$lm" = "$la" ] ||
	fail "merge: learned $lm, want alpha's earlier $la (beta $lb)"
[ "$um" = $((ua + ub)) ] && [ "$ua" -gt 0 ] && [ "$ub" -gt 0 ] ||
	fail "merge: $um uses, want $ua + $ub"
grep -q 'still learning.*<kernel> .*/workload$' "$tmp/merged-stats.txt" ||
	fail "merge: alpha's learning domain is not still learning"
finish t_convergence
