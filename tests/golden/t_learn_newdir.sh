#!/bin/bash
# t_learn_newdir.sh - learn -p into a directory whose parents do not exist
# yet makes them (as an administrator's first `learn -p /srv/x/policy`
# expects); a run that fails there leaves nothing behind.
. "$(dirname "$0")/lib.sh"
log="$HM_SRC/samples/audit/apache2-sysv.log"

"$HISTMAC" learn -q --no-resolve -p "$tmp/a/b/policy" -i "$log" >"$tmp/out" 2>&1 ||
	die "learn into a new nested directory: $(cat "$tmp/out")"
[ -s "$tmp/a/b/policy/domain_policy.conf" ] || die "no policy in the new directory"
[ ! -e "$tmp/a/b/policy/.histmac.lock" ] || die "the lock file was left"

rc=0
"$HISTMAC" learn -q -p "$tmp/c/d/policy" -i "$tmp/no-such.log" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 3 ] || die "a missing log: exit $rc, want 3"
[ ! -e "$tmp/c" ] || die "a failed run left $(find "$tmp/c")"
finish t_learn_newdir
