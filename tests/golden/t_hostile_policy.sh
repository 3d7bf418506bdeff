#!/bin/bash
# t_hostile_policy.sh - hostile policy files (tests/data/hostile/policy-*
# and generated ones, README.md): NUL bytes, a 100 MB line, over-long
# words and domain names, bad escapes, unbalanced \{ \}, 256+ acl_groups,
# groups used but never defined, an over-long process table line.  Every
# bad line is reported as FILE:LINE and skipped, the rest loads, and a
# long line is never held in memory.
# Needs $HISTMAC and $HM_SRC; about 10 s on 2 cores.
. "$HM_SRC/tests/data/hostile/lib.sh"
log=$HM_SRC/tests/data/exec.log

# --- NUL bytes: the line is skipped; a domain header with one takes its
# ACL lines with it (they must not land in the domain before it)
run 4 "$HISTMAC" policy check -p "$hostile/policy-nul"
p=$hostile/policy-nul
for l in 4 5 6 9; do
	has "$tmp/out" "^$p/domain_policy.conf:$l: error: NUL byte in line; skipped\$" "nul: line $l"
done
has "$tmp/out" "^$p/domain_policy.conf:7: error: 'file read /in-nul-domain' skipped: its domain header is bad\$" \
	"nul: ACL of a bad header"
has "$tmp/out" "^$p/exception_policy.conf:1: error: NUL byte in line" "nul: exception policy"
has "$tmp/out" "^$p/rewrite.conf:1: error: NUL byte in line" "nul: rewrite.conf"
has "$tmp/out" ': tomoyo, 2 domains, 2 entries, 1 exception entries, 1 rewrite rules: 7 errors' \
	"nul: the rest loaded"
run 4 "$HISTMAC" export -p "$p" --format tomoyo
hasnt "$tmp/out" 'in-nul-domain' "nul: entry of the bad domain exported"

# --- over-long words, bad escapes, unbalanced \{ \}, too many wildcards
p=$hostile/policy-words
run 4 "$HISTMAC" policy check -p "$p"
f="^$p/domain_policy.conf"
has "$tmp/out" "$f:4: error: name longer than 8192 bytes\$" "words: 8,193 bytes"
has "$tmp/out" "$f:5: error: name longer than 8192 bytes\$" "words: 30,001 bytes"
has "$tmp/out" "$f:6: error: bad name '/bad\\\\q': bad escape" "words: \\q"
has "$tmp/out" "$f:7: error: bad name '/bad\\\\400': bad escape" "words: \\400"
has "$tmp/out" "$f:8: error: bad name '/bad\\\\0': bad octal escape" "words: \\0"
has "$tmp/out" "$f:9: error: bad name '/bad\\\\08': bad octal escape" "words: \\08"
has "$tmp/out" "$f:10: error: .*lone '\\\\' at the end" "words: trailing \\"
has "$tmp/out" "$f:11: error: .*lone '\\\\' at the end" "words: \\\\\\"
has "$tmp/out" "$f:12: error: .*'/' inside \\\\\\{ \\\\\\}" "words: / in braces"
has "$tmp/out" "$f:13: error: .*\\\\\\} without \\\\\\{" "words: lone \\}"
has "$tmp/out" "$f:14: error: .*\\\\\\{ without \\\\\\}" "words: lone \\{"
has "$tmp/out" "$f:15: error: .*must come right after '/'" "words: a\\{"
has "$tmp/out" "$f:16: error: .*must come right after '/'" "words: nested braces"
has "$tmp/out" "$f:17: error: .*must come right before '/'" "words: \\} at the end"
has "$tmp/out" "$f:18: error: .*more than 20 wildcards" "words: 21 wildcards"
has "$tmp/out" ': tomoyo, 1 domains, 4 entries, .*: 15 errors' "words: the 4 good lines loaded"
run 4 "$HISTMAC" export -p "$p" --format tomoyo
has "$tmp/out" '^file read /w{8191}$' "words: 8,192 bytes kept"
has "$tmp/out" '^file read /ok/\\\{dir\\\}/file$' "words: good braces kept"
has "$tmp/out" '^file read /last-good$' "words: line after the bad ones"

# --- 300 acl_groups (0-255 valid), use_group out of range
p=$hostile/policy-groups
run 4 "$HISTMAC" policy check -p "$p"
[ "$(grep -c ': error: acl_group: expected a number from 0 to 255$' "$tmp/out")" -eq 47 ] ||
	fail "groups: 44 over 255 and 3 bad numbers"
has "$tmp/out" "^$p/exception_policy.conf:257: error: acl_group" "groups: 256 is the first bad one"
for l in 5 6 7; do
	has "$tmp/out" "^$p/domain_policy.conf:$l: error: use_group: .* is not a number from 0 to 255\$" "groups: use_group line $l"
done
has "$tmp/out" ': tomoyo, 1 domains, 1 entries, 256 exception entries' "groups: 256 loaded"
run 4 "$HISTMAC" export -p "$p" --format tomoyo
has "$tmp/out" '^acl_group 255 file read /tmp/g255$' "groups: group 255 kept"
has "$tmp/out" '^use_group 255$' "groups: use_group 255 kept"
hasnt "$tmp/out" '^acl_group 25[6-9]' "groups: over 255 dropped"

# --- groups used but never defined: TOMOYO makes them empty (they match
# nothing); histmac should say so
p=$hostile/policy-undefined
run 0 "$HISTMAC" policy check -p "$p"
has "$tmp/out" ': tomoyo, 1 domains, 4 entries, 1 exception entries' "undefined: loaded"
for g in 'path_group undefined_path' 'number_group undefined_number' \
	'address_group undefined_address' 'use_group 7, but acl_group 7'; do
	has "$tmp/out" "exception_policy.conf: warning: $g" "undefined: $g reported"
done
hasnt "$tmp/out" 'path_group defined ' "undefined: a defined group is not reported"

# --- a 100 MB line, in each policy file and with no newline at all: one
# FILE:LINE error, the next line still read, and never held in memory
mkdir "$tmp/long"
$gen longline 100 >"$tmp/long/domain_policy.conf"
run 4 "$HISTMAC" policy check -p "$tmp/long"
has "$tmp/out" "^$tmp/long/domain_policy.conf:2: error: line longer than 65536 bytes; skipped\$" \
	"100 MB: FILE:LINE"
has "$tmp/out" ', 1 domains, 1 entries, ' "100 MB: line after it read"
rss_below 16384 "policy check, 100 MB line"
run 4 "$HISTMAC" learn -p "$tmp/long" -i "$log"
has "$tmp/err" 'domain_policy.conf:2: error: line longer than 65536 bytes' "100 MB: learn reports"
has "$tmp/err" 'nothing was learned' "100 MB: learn refuses"
rss_below 16384 "learn, 100 MB policy line"
run 1 "$HISTMAC" check -p "$tmp/long" -i "$log"
has "$tmp/err" 'domain_policy.conf:2: error: line longer than 65536 bytes' "100 MB: check reports"
rss_below 16384 "check, 100 MB policy line"
mv "$tmp/long/domain_policy.conf" "$tmp/long/exception_policy.conf"
cp "$tmp/long/exception_policy.conf" "$tmp/long/rewrite.conf"
head -c 104857600 /dev/zero | tr '\0' x >"$tmp/long/domain_policy.conf"
run 4 "$HISTMAC" policy check -p "$tmp/long"
has "$tmp/out" "domain_policy.conf:1: error: line longer than 65536 bytes" "100 MB: no newline"
has "$tmp/out" "exception_policy.conf:2: error: line longer than 65536 bytes" "100 MB: exception policy"
has "$tmp/out" "rewrite.conf:2: error: line longer than 65536 bytes" "100 MB: rewrite.conf"
rss_below 16384 "policy check, three 100 MB lines"
rm -rf "$tmp/long"

# --- a domain header over the line limit: its ACL lines go with it
mkdir "$tmp/dom"
{ echo '<kernel>'; echo 'file read /kernel-ok'
  printf '<kernel> /%s\n' "$(head -c 70000 /dev/zero | tr '\0' d)"
  echo 'file read /of-the-long-domain'; } >"$tmp/dom/domain_policy.conf"
run 4 "$HISTMAC" policy check -p "$tmp/dom"
has "$tmp/out" 'domain_policy.conf:3: error: line longer than 65536 bytes' "long domain: reported"
has "$tmp/out" "domain_policy.conf:4: error: 'file read /of-the-long-domain' skipped: its domain header is bad" \
	"long domain: its ACL skipped"
has "$tmp/out" ', 1 domains, 1 entries, ' "long domain: <kernel> untouched"

# --- the process table (--state) is read with the same cap
$gen longline 100 >"$tmp/big.state"
echo '4242 1 0 0 /bin/x <kernel> /bin/x' >>"$tmp/big.state"
run 0 "$HISTMAC" learn -p "$tmp/st" --state "$tmp/big.state" -i "$log"
has "$tmp/err" 'big.state:2: error: process table line longer than ' "state: long line reported"
has "$tmp/big.state" '^4242 1 0 0 /bin/x <kernel> /bin/x$' "state: next line loaded and saved"
rss_below 16384 "learn, 100 MB process table line"

finish t_hostile_policy
