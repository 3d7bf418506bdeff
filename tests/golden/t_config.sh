#!/bin/bash
# t_config.sh - histmac.conf: keys become each subcommand's options, the
# command line wins (also for a repeated option), bad lines are refused
# with FILE:LINE and exit 2, an explicit --config must exist, and a
# learn with policy_dir from the file writes the same policy as -p.
. "$(dirname "$0")/lib.sh"
log=$HM_SRC/samples/audit/apache2-sysv.log

cat >"$tmp/c.conf" <<EOC
# comment
policy_dir = $tmp/conf-pol
save_interval = 5
enforce_marks = /srv   /var/www
supervisor_socket = /run/hm-test.sock
resolve_paths = no
EOC
got=$("$HISTMAC" --config "$tmp/c.conf" config enforce)
[ "$got" = "histmac enforce --policy $tmp/conf-pol --save-interval 5 --mark /srv --mark /var/www --supervisor /run/hm-test.sock" ] ||
	die "enforce options: $got"
got=$("$HISTMAC" config --config="$tmp/c.conf" query)
[ "$got" = "histmac query --socket /run/hm-test.sock" ] || die "query: $got"
got=$("$HISTMAC" --config "$tmp/c.conf" config learn)
[ "$got" = "histmac learn --policy $tmp/conf-pol --save-interval 5 --no-resolve" ] ||
	die "learn options: $got"
got=$("$HISTMAC" --config "$tmp/c.conf" config match)
[ "$got" = "histmac match" ] || die "match takes no key: $got"

# policy_dir from the file: the same policy as -p
"$HISTMAC" learn --config "$tmp/c.conf" -q -i "$log" 2>/dev/null
"$HISTMAC" learn -q -p "$tmp/cli-pol" --no-resolve -i "$log" 2>/dev/null
diff -r "$tmp/cli-pol" "$tmp/conf-pol" >&2 || die "policy_dir gave another policy"
# the command line wins: -p elsewhere leaves conf-pol alone
"$HISTMAC" stats --config "$tmp/c.conf" -p "$tmp/cli-pol" >"$tmp/s1"
"$HISTMAC" --config "$tmp/c.conf" stats >"$tmp/s2"
diff "$tmp/s1" "$tmp/s2" >/dev/null || die "stats from policy_dir differs"
"$HISTMAC" --config "$tmp/c.conf" stats -p "$tmp/missing" >/dev/null 2>&1 &&
	die "-p did not win over policy_dir"

# bad lines: FILE:LINE, exit 2, nothing done; a key whose option is gone
# (enforce_nice) is an unknown key like any other
printf 'bogus\npolicy_dir = relative\nsave_interval = x\nno_such_key = 1\nsave_interval = 2\nsave_interval = 3\nenforce_nice = keep\n' >"$tmp/bad.conf"
rc=0
"$HISTMAC" --config "$tmp/bad.conf" learn -p "$tmp/bad-pol" -i "$log" 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] || die "bad config: exit $rc, want 2"
[ ! -e "$tmp/bad-pol" ] || die "a command ran with a bad config"
cat >"$tmp/want" <<EOW
$tmp/bad.conf:1: error: expected 'key = value'
$tmp/bad.conf:4: error: unknown key: 'no_such_key'
$tmp/bad.conf:5: error: key given twice: 'save_interval'
$tmp/bad.conf:6: error: key given twice: 'save_interval'
$tmp/bad.conf:7: error: unknown key: 'enforce_nice'
$tmp/bad.conf:2: error: policy_dir: expected an absolute path
$tmp/bad.conf:3: error: save_interval: expected a number
EOW
diff -u "$tmp/want" "$tmp/err" || die "bad config messages"
# --help still works with a broken file
"$HISTMAC" --config "$tmp/bad.conf" learn --help >/dev/null || die "--help read the config"

rc=0
"$HISTMAC" --config "$tmp/none.conf" stats -p "$tmp/cli-pol" 2>"$tmp/err" >/dev/null || rc=$?
[ "$rc" = 3 ] || die "missing --config: exit $rc, want 3"
grep -q "$tmp/none.conf: No such file" "$tmp/err" || die "missing file not named"
rc=0
"$HISTMAC" stats -p "$tmp/cli-pol" --config 2>/dev/null >/dev/null || rc=$?
[ "$rc" = 2 ] || die "--config without FILE: exit $rc, want 2"
# every key stands for an option its commands still have (options get
# renamed: cli/cli_config.c must follow)
cat >"$tmp/all.conf" <<EOC
policy_dir = /p
state_file = /s
save_interval = 1
resolve_paths = no
resolve_root = /r
learn_failed = yes
max_learning_entry = 1
peer_ports = 1-2
ephemeral_ports = 1-2
enforce_marks = /m
enforce_mode = permissive
enforce_default = allow
enforce_strict = no
decision_timeout = 1
query_timeout = 1
cache_size = 1
ignore_marks = 1
record_use = yes
pidfile = /f
supervisor_socket = /k
EOC
for cmd in $("$HISTMAC" --help | awk '/^Commands:/ {on=1; next} on && /^  [a-z]/ {print $1}'); do
	"$HISTMAC" --config "$tmp/all.conf" config "$cmd" | tr ' ' '\n' | grep '^--' |
	while read -r opt; do
		"$HISTMAC" "$cmd" --help | grep -q -- "$opt\b" ||
			die "histmac $cmd has no $opt (histmac.conf key)"
	done
done
finish "t_config"
