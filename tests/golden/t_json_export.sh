#!/bin/bash
# t_json_export.sh - `histmac export --format json`: the golden output of
# the posting's sample, and the fields docs/JSON.md promises, queried
# with jq on it and on a policy learned from real logs; names that need
# escaping stay valid JSON and valid UTF-8.  Needs $HISTMAC, $HM_SRC, jq.
. "$(dirname "$0")/lib.sh"

golden=$HM_SRC/tests/golden/export-json

if ! command -v jq >/dev/null; then
	[ "${CI:-}" = true ] && { echo "t_json_export: jq missing (scripts/deps.sh test)" >&2; exit 1; }
	echo "t_json_export: jq missing, skipped" >&2
	exit 77
fi

# expect JQ-FILTER FILE: the filter must print "true".
expect() {
	local got
	got=$(jq -e "$1" "$2" 2>&1) && [ "$got" = true ] || fail "$2: $1 -> $got"
}

sample=$HM_SRC/samples/policy/apache2-2007
"$HISTMAC" export -p "$sample" --format json -o "$tmp/a.json"
diff -u "$golden/apache2-2007.json" "$tmp/a.json" || fail "apache2: differs from golden"

j=$tmp/a.json
expect '.format == "histmac-policy" and .version == 1' "$j"
expect '.dialect == "tomoyo-2.1" and .domain_count == 7' "$j"
expect '(.domains | length) == .domain_count' "$j"
expect '[.domains[].name] == ([.domains[].name] | sort)' "$j"
expect 'all(.domains[]; .acl_count == (.acl | length))' "$j"
expect 'all(.domains[]; . as $d | $d.parent == null or ($d.name | startswith($d.parent + " ")))' "$j"
expect 'all(.domains[]; (.program == null) == (.name | contains(" ") | not))' "$j"
expect '.domains[-1].name | endswith("/usr/sbin/apache2")' "$j"
expect '.domains[-1].profile == 3 and .domains[-1].mode == "enforcing"' "$j"
expect '[.domains[-1].acl[] | select(.kind == "path" and .path == "/etc/hosts") | .perm] == [["read"]]' "$j"
expect '[.domains[].acl[] | select(.kind == "inet" and .perm == ["bind", "listen"])][0] | .protocol == "stream" and .address.min == "192.168.1.135" and .port.min == 80' "$j"
expect '[.domains[].acl[] | select(.kind == "inet" and .perm == ["accept"])][0] | .port == {"min": 1024, "max": 65535, "radix": "dec"}' "$j"
expect 'all(.domains[].acl[]; .line | type == "string")' "$j"
expect '.exception.acl_groups[0].number == 0' "$j"
expect '.exception.file_patterns | index("/tmp/sess_\\*") != null' "$j"
expect '.exception.renames[0].type == "aggregator"' "$j"

# A learned policy: counters and flags come through typed.
"$HISTMAC" learn -i "$HM_SRC"/tests/data/{exec,file,net,signal}.log -p "$tmp/l" >/dev/null
"$HISTMAC" export -p "$tmp/l" --format json -o "$tmp/l.json"
j=$tmp/l.json
expect 'any(.domains[]; .events > 0 and .first_seen > 1000000000 and .last_seen >= .first_seen)' "$j"
expect 'any(.domains[]; .flags | index("parent-unobserved") != null)' "$j"
expect 'all(.domains[].acl[]; .kind | IN("path", "path-number", "mkdev", "path2", "mount", "inet", "unix", "signal", "env"))' "$j"
expect 'all(.domains[].acl[] | select(.perm); .perm | length > 0)' "$j"

# Names needing escapes: quotes, <, &, backslashes (encoded bytes).
mkdir "$tmp/w"
cat >"$tmp/w/domain_policy.conf" <<'POLICY'
<kernel>
use_profile 1

file read /etc/"q"<&>\040\377\\

<kernel> /usr/bin/a\040b"c
use_profile 2
POLICY
"$HISTMAC" export -p "$tmp/w" --format json -o "$tmp/w.json"
iconv -f UTF-8 -t UTF-8 "$tmp/w.json" >/dev/null || fail "weird names: not UTF-8"
expect '.domains[0].acl[0].path == "/etc/\"q\"<&>\\040\\377\\\\"' "$tmp/w.json"
expect '.domains[1].program == "/usr/bin/a\\040b\"c"' "$tmp/w.json"

# An empty policy is an empty document, still JSON.
mkdir "$tmp/e"
: >"$tmp/e/domain_policy.conf"
"$HISTMAC" export -p "$tmp/e" --format json -o "$tmp/e.json"
expect '.domains == [] and .domain_count == 0' "$tmp/e.json"

finish t_json_export
