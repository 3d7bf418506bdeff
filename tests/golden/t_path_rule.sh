#!/bin/bash
# t_path_rule.sh - one path rule for every source (docs/PATHS.md): a policy
# learned from auditd's plugin feed is checked against the same log read
# with -i without a single denial; the rule is recorded beside the TOMOYO
# files and check follows it; a run with another rule is warned of.
. "$(dirname "$0")/lib.sh"
log="$HM_SRC/samples/audit/apache2-sysv.log"

# the README's sequence: learn as the plugin does, check the log with -i
"$HISTMAC" learn --plugin -p "$tmp/p" <"$log" >"$tmp/out" 2>&1 ||
	die "learn --plugin: $(cat "$tmp/out")"
grep -qx 'paths resolve' "$tmp/p/histmac_paths.conf" ||
	die "the rule is not recorded: $(cat "$tmp/p/histmac_paths.conf")"
# (the log is another host's: where this host has another file at one of
# its names, the access is of an unidentified object, a finding apart)
rc=0
"$HISTMAC" check -p "$tmp/p" -i "$log" >"$tmp/check" 2>"$tmp/err" || rc=$?
unid=$(sed -n 's/^# \([0-9]*\) access.* of unidentified objects.*/\1/p' "$tmp/check")
[ "$rc" = $((${unid:-0} > 0)) ] || die "check -i exit $rc: $(head -n 3 "$tmp/check")"
grep -q ', 0 denied, ' "$tmp/check" || die "check -i denied: $(head -n 1 "$tmp/check")"
! grep -q 'path rule' "$tmp/err" || die "same rule warned: $(cat "$tmp/err")"

# another rule than the policy's: warned, and it shows why it matters
rc=0
"$HISTMAC" check -p "$tmp/p" --no-resolve -i "$log" >"$tmp/check" 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || die "check --no-resolve exit $rc, want 1 (denials)"
grep -q 'learned with the path rule resolve, this run uses no-resolve' "$tmp/err" ||
	die "no warning for a different rule: $(cat "$tmp/err")"

# a policy learned without resolving is checked without resolving
"$HISTMAC" learn --no-resolve -p "$tmp/n" -i "$log" >"$tmp/out" 2>&1 ||
	die "learn --no-resolve: $(cat "$tmp/out")"
grep -qx 'paths no-resolve' "$tmp/n/histmac_paths.conf" || die "no-resolve not recorded"
rc=0
"$HISTMAC" check -p "$tmp/n" -i "$log" >"$tmp/check" 2>"$tmp/err" || rc=$?
[ "$rc" = 0 ] || die "check of a no-resolve policy exit $rc: $(head -n 1 "$tmp/check")"
# ... and learning on into it keeps its rule
"$HISTMAC" learn -p "$tmp/n" -i "$log" >"$tmp/out" 2>&1 || die "learn again"
grep -qx 'paths no-resolve' "$tmp/n/histmac_paths.conf" || die "rule changed by a run without one"

# a damaged rule file is an error naming it, not a silent default
echo 'paths sideways' >"$tmp/n/histmac_paths.conf"
rc=0
"$HISTMAC" check -p "$tmp/n" -i "$log" >"$tmp/check" 2>"$tmp/err" || rc=$?
[ "$rc" = 3 ] || die "bad rule file: exit $rc, want 3"
grep -q 'histmac_paths.conf:1: ' "$tmp/err" || die "bad rule file not named: $(cat "$tmp/err")"
finish "t_path_rule"
