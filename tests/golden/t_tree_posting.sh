#!/bin/bash
# t_tree_posting.sh - `histmac tree --format text` of the 2007 posting's
# apache2 example (samples/policy/apache2-2007) has the posting's shape
# (tests/golden/tree-posting/expected.txt), --root/--depth cut it, and
# the usage errors fail as documented.  Needs $HISTMAC and $HM_SRC.
. "$(dirname "$0")/lib.sh"

golden=$HM_SRC/tests/golden/tree-posting
sample=$HM_SRC/samples/policy/apache2-2007

# The posting's shape, checked independently of expected.txt too: every
# line after "<kernel>" is "+ /path" indented by two more spaces, each
# with the domain's profile and entry count.
expect_rc 0 "$HISTMAC" tree -p "$sample"
diff -u "$golden/expected.txt" "$tmp/out" || fail "posting tree differs"
awk 'NR == 1 { if ($1 != "<kernel>") exit 1; next }
     { want = sprintf("%*s+ /", 2 * (NR - 2), "");
       if (substr($0, 1, length(want)) != want) exit 1 }
     !/ \(profile [0-9]+, [0-9]+ entr(y|ies)\)$/ { exit 1 }
     END { if (NR != 7) exit 1 }' "$tmp/out" || fail "not the posting's shape"

# The same through -o FILE.txt (format from the extension), and --format.
expect_rc 0 "$HISTMAC" tree -p "$sample" -o "$tmp/t.txt"
diff -u "$golden/expected.txt" "$tmp/t.txt" || fail "-o t.txt differs"
expect_rc 0 "$HISTMAC" tree -p "$sample" --format text -o "$tmp/t.any"
diff -u "$golden/expected.txt" "$tmp/t.any" || fail "--format text differs"

expect_rc 0 "$HISTMAC" tree -p "$sample" --format text \
	--root '<kernel> /sbin/init /etc/init.d/rc' --depth 2
diff -u "$golden/expected-root-depth.txt" "$tmp/out" || fail "--root/--depth"

# What must fail.
expect_rc 2 "$HISTMAC" tree -p "$sample" --root '<kernel> /nope'
grep -q "no domain named '<kernel> /nope'" "$tmp/err" || fail "unknown root message"
expect_rc 2 "$HISTMAC" tree -p "$sample" -o "$tmp/t.jpeg"
expect_rc 2 "$HISTMAC" tree -p "$sample" --format jpeg
expect_rc 2 "$HISTMAC" tree -p "$sample" --format xml
expect_rc 2 "$HISTMAC" tree -p "$sample" --depth 0
expect_rc 2 "$HISTMAC" tree -p "$sample" --max-children x
expect_rc 2 "$HISTMAC" tree
expect_rc 2 "$HISTMAC" tree -p "$sample" extra
expect_rc 3 "$HISTMAC" tree -p "$tmp/no-such-dir"
expect_rc 3 "$HISTMAC" tree -p "$sample" --highlight "$tmp/no-such.json"
echo 'not json' >"$tmp/bad.json"
expect_rc 3 "$HISTMAC" tree -p "$sample" --highlight "$tmp/bad.json"
grep -q "bad.json:1:" "$tmp/err" || fail "bad check json: no FILE:LINE"
[ ! -e "$tmp/t.jpeg" ] || fail "a failed run left a file"
expect_rc 0 "$HISTMAC" tree --help
grep -q "usage: histmac tree" "$tmp/out" || fail "--help"

# A directory without a policy is refused; an empty policy draws an
# empty tree, and a valid picture.
mkdir "$tmp/empty"
expect_rc 3 "$HISTMAC" tree -p "$tmp/empty"
grep -qF "$tmp/empty: no policy" "$tmp/err" || fail "empty dir: no 'DIR: no policy'"
: >"$tmp/empty/domain_policy.conf"
expect_rc 0 "$HISTMAC" tree -p "$tmp/empty"
[ ! -s "$tmp/out" ] || fail "empty policy: text not empty"
expect_rc 0 "$HISTMAC" tree -p "$tmp/empty" -o "$tmp/empty.svg"
xmllint --noout "$tmp/empty.svg" || fail "empty policy: svg not well-formed"

finish t_tree_posting
