#!/usr/bin/env bash
# t_patternize_names.sh - names that change with the clock or a counter,
# learned from a first period and checked on the next: logrotate's
# counters (syslog.1, syslog.2.gz, dpkg.log.1 that a rename proves),
# dateext and postfix's rotated log (postfix.log.20261207-084757), cron
# backups (data-20261207-1733.tar.gz, backup-2026-12-07T08:47:57.sql.gz,
# epoch snap-1796600000.db) and a run's letter and number (up-L-1.dat).
# After `patternize --apply` the next day's and the next rotation's
# names check with no denial; what patternize cannot prove (one backup
# name), a credential's dates and the names users chose stay literal,
# are listed (review, refused) and are denied on the next day, until a
# listed widening is added to rewrite.conf by hand.
# Input: logs written by tests/golden/auditgen.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/auditgen.sh"

# logrotate's Nth rotation of syslog: delaycompress, then gzip
# (by the day's logrotate, $lr)
rotate_syslog() {	# N
	local n=$1 k gz=$((lr + $1))
	for ((k = n; k > 2; k--)); do
		ag_rename $lr "/var/log/syslog.$((k - 1)).gz" "/var/log/syslog.$k.gz"
	done
	if [ "$n" -ge 2 ]; then
		ag_rename $lr /var/log/syslog.1 /var/log/syslog.2
		ag_clone $lr $gz; ag_exec $gz /usr/bin/gzip
		ag_open $gz /var/log/syslog.2; ag_open $gz /var/log/syslog.2.gz w
		ag_unlink $gz /var/log/syslog.2
	fi
	ag_rename $lr /var/log/syslog /var/log/syslog.1
	ag_open $lr /var/log/syslog w
}

# one day of the services, their pids from PIDS on: DATE YYYYMMDD,
# DASHED YYYY-MM-DD, EPOCH, the time of postfix's rotation, the period's
# letter, the notes users wrote that day
day() {	# PIDS DATE DASHED EPOCH TIME LETTER NOTE...
	local o=$1 d=$2 dd=$3 ep=$4 t=$5 l=$6 n
	shift 6
	ag_sec=$ep
	lr=$((o + 200)); bk=$((o + 500))
	ag_clone 100 $lr; ag_exec $lr /usr/sbin/logrotate
	ag_open $lr /etc/logrotate.conf
	# postfix's own rotation: maillog_file_rotate_suffix %Y%m%d-%H%M%S
	ag_clone 100 $((o + 400)); ag_exec $((o + 400)) /usr/sbin/postlog
	ag_rename $((o + 400)) /var/log/postfix.log "/var/log/postfix.log.$d-$t"
	ag_clone $((o + 400)) $((o + 401)); ag_exec $((o + 401)) /usr/bin/gzip
	ag_open $((o + 401)) "/var/log/postfix.log.$d-$t"
	ag_open $((o + 401)) "/var/log/postfix.log.$d-$t.gz" w
	ag_unlink $((o + 401)) "/var/log/postfix.log.$d-$t"
	ag_open $((o + 400)) /var/log/postfix.log w
	# cron's backup scripts
	ag_clone 100 $bk; ag_exec $bk /etc/cron.daily/backup
	ag_open $bk "/srv/backup/data-$d-1733.tar.gz" w
	ag_open $bk "/srv/backup/backup-${dd}T08:47:57.sql.gz" w
	ag_open $bk "/srv/backup/snap-$ep.db" w
	# a renewed certificate's key: a credential, never generalized
	ag_open $bk "/etc/ssl/private/site-$dd.key"
	# scp uploads: the period's letter, the run's number
	ag_clone 100 $((o + 600)); ag_exec $((o + 600)) /usr/bin/scp
	ag_open $((o + 600)) "/srv/upload/up-$l-1.dat" w
	ag_open $((o + 600)) "/srv/upload/up-$l-2.dat" w
	# the notes a CGI script's users chose
	for n; do
		ag_open 700 "/srv/notes/$n.txt" w
	done
}

{	# the first period: two days, three rotations of syslog
	ag_start 100 /usr/sbin/cron
	ag_start 300 /usr/sbin/rsyslogd
	ag_start 700 /srv/cgi-bin/notes.cgi
	ag_open 300 /var/log/syslog w
	day 0 20261206 2026-12-06 1796515200 084757 L groceries todo ideas
	rotate_syslog 1
	ag_rename $lr /var/log/dpkg.log /var/log/dpkg.log.1
	ag_rename $lr /srv/app/app.log /srv/app/app.log-20261206
	ag_open $bk /srv/backup/weekly-20261206.tar w
	day 1000 20261207 2026-12-07 1796601600 084802 L books films plan-b
	rotate_syslog 2
	rotate_syslog 3
} >"$tmp/log1"

{	# the next period: the next day, the next rotation
	ag_start 100 /usr/sbin/cron
	ag_start 300 /usr/sbin/rsyslogd
	ag_start 700 /srv/cgi-bin/notes.cgi
	ag_open 300 /var/log/syslog w
	day 0 20261208 2026-12-08 1796688000 091502 M recipes
	ag_open 600 /srv/upload/up-M-3.dat w
	rotate_syslog 4
	ag_rename $lr /var/log/dpkg.log /var/log/dpkg.log.1
	ag_rename $lr /srv/app/app.log /srv/app/app.log-20261208
	ag_open $bk /srv/backup/weekly-20261213.tar w
} >"$tmp/log2"

pol=$tmp/pol
"$HISTMAC" learn -q --no-resolve -p "$pol" -i "$tmp/log1" || die "learn failed"
cp -a "$pol" "$tmp/learned"

# 1. The suggestions: every rotated, dated and numbered name whole.
expect_rc 0 "$HISTMAC" patternize --no-fs -p "$pol"
cp "$tmp/out" "$tmp/suggest"
T8='\+\+\+\+\+\+\+\+'
for want in \
	'/var/log/syslog.\$' '/var/log/syslog.\$.gz' '/var/log/dpkg.log.\$' \
	"/var/log/postfix.log.$T8-\\+\\+\\+\\+\\+\\+" \
	"/var/log/postfix.log.$T8-\\+\\+\\+\\+\\+\\+.gz" \
	"/srv/app/app.log-$T8" \
	"/srv/backup/data-$T8-\\+\\+\\+\\+.tar.gz" \
	'/srv/backup/backup-\+\+\+\+-\+\+-\+\+T\+\+:\+\+:\+\+.sql.gz' \
	"/srv/backup/snap-$T8\\+\\+.db" \
	'/srv/upload/up-\a-\$.dat'; do
	grep -v '^#' "$tmp/suggest" | cut -f2 | grep -qxF "$want" ||
		fail "not suggested: $want"
done
# what stays literal is listed, commented out: one name, a credential,
# the names users chose
grep -qxF "# review: one name, and no rotation renamed it: a second one shows it changes: /srv/backup/weekly-20261206.tar" \
	"$tmp/suggest" || fail "the one weekly backup is not held for review"
grep -q '^# refused: a sensitive name motivated it: /etc/ssl/private/site-' \
	"$tmp/suggest" || fail "the key's dates are not refused"
grep -qxF '#   6 names of <kernel> /srv/cgi-bin/notes.cgi, learned over 1 d 0 h' \
	"$tmp/suggest" || fail "the notes' widening lacks its evidence"
grep -q '^# ^\\/srv\\/notes\\/\[^/\]\*\\\.txt\$	/srv/notes/\\\*\.txt$' \
	"$tmp/suggest" || fail "the notes' widening is not listed for review"
[ "$(grep -v '^#' "$tmp/suggest" | grep -c 'weekly\|site-\|notes')" = 0 ] ||
	fail "a listed rule is not commented out"
grep -q 'ssl/private.*\\+\|ssl/private.*\\\$' <(grep -v '^#' "$tmp/suggest") &&
	fail "a credential's name generalized"

# 2. Apply; the first period still checks clean.
expect_rc 0 "$HISTMAC" patternize --no-fs -p "$pol" --apply
grep -q '^# applied .* (1 refused, 2 for review)' "$tmp/out" ||
	fail "apply's summary: $(grep '^# applied' "$tmp/out")"
check_clean "$HISTMAC" check --no-resolve -p "$pol" -i "$tmp/log1"
for lit in /srv/backup/weekly-20261206.tar /etc/ssl/private/site-2026-12-06.key \
	/srv/notes/todo.txt; do
	grep -q " $lit\( \|$\)" "$pol/domain_policy.conf" ||
		fail "$lit did not stay literal"
done

# 3. The next period: no denial from a timestamp, a rotation or a
# period's letter; the literal ones are denied, each once.
expect_rc 1 "$HISTMAC" check --no-resolve -p "$pol" -i "$tmp/log2"
cp "$tmp/out" "$tmp/check2"
grep -oE '/(var/log|srv/app|srv/backup|srv/upload|srv/notes|etc/ssl/private)/[^ ]*' \
	"$tmp/check2" | sort -u >"$tmp/denied_names"
printf '%s\n' /etc/ssl/private/site-2026-12-08.key /srv/backup/weekly-20261213.tar \
	/srv/notes/recipes.txt | sort >"$tmp/want_names"
diff -u "$tmp/want_names" "$tmp/denied_names" >&2 ||
	fail "the next period's denials are not just the literal names"

# 4. The widening applied by hand (the user asks): the next note checks.
grep '^# ^\\/srv\\/notes' "$tmp/suggest" | sed 's/^# //' >>"$pol/rewrite.conf"
expect_rc 0 "$HISTMAC" patternize --no-fs -p "$pol" --apply
expect_rc 1 "$HISTMAC" check --no-resolve -p "$pol" -i "$tmp/log2"
cp "$tmp/out" "$tmp/check3"
grep -q 'recipes.txt' "$tmp/check3" && fail "the widening added by hand did not apply"
grep -q 'site-2026-12-08.key' "$tmp/check3" || fail "the key is no longer denied"

# 5. learn's output is patternize's business only: learning the first
# period again writes what learn wrote before.
"$HISTMAC" learn -q --no-resolve -p "$tmp/again" -i "$tmp/log1" || die "learn failed"
diff -r "$tmp/learned" "$tmp/again" >/dev/null || fail "learn's output is not stable"

finish t_patternize_names
