#!/bin/bash
# t_store_enforce_edit.sh - issue 20: the enforcer in learning mode keeps
# an administrator's edit.  It learns an open; the administrator edits
# domain_policy.conf in place (an entry deleted, one added, a domain's
# profile changed) and sends SIGHUP: the files hold the edit and what was
# learned.  It learns more; a second edit, then the periodic save: the
# same.  It learns more and stops (SIGTERM): the same, every learned entry
# and both edits in the files.  Last, opens that taught nothing, counted
# and not saved yet, are not lost to an edit and SIGHUP.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"
. "$(dirname "$0")/store_lib.sh"

hm_store_setup helper other
H="<kernel> $T/helper"
O="<kernel> $T/other"
C="<kernel> $T/child"
# an editor that writes the file in place (truncate, then write)
edit() { awk "$1" "$dp" >"$HM_TMP/edited"; cat "$HM_TMP/edited" >"$dp"; }

hm_enf_start --save-interval 2
hm_enf_ok "$T/helper" read "$T/b"		# learned, maybe not saved yet
# edit 1: $H loses "read a", gains "read c"; $O becomes permissive
edit "
	\$0 == \"$H\" { d = 1; print; next }
	\$0 == \"$O\" { d = 2; print; next }
	/^<kernel>/ { d = 0 }
	d == 1 && \$0 == \"file read $T/a\" { print \"file read $T/c\"; next }
	d == 2 && /^use_profile / { print \"use_profile 2\"; next }
	{ print }"
n=$(saves)
kill -HUP "$DPID"
hm_wait_for "[ \$(saves) -gt $n ]" 100 || hm_enf_fail "no save after SIGHUP"
hm_enf_log_has "policy reloaded"
check_edit1() {
	lacks "$H" "file read $T/a" "$1"
	has "$H" "file read $T/c" "$1"
	acl "$O" | grep -qx "use_profile 2" ||
		{ cat "$dp" >&2; hm_enf_fail "$1: the profile edit of '$O' was lost"; }
	has "$H" "file read $T/b" "$1"
}
check_edit1 "edit, then SIGHUP"
has "$O" "file read $T/a" "edit, then SIGHUP"
hm_ok "an edit and SIGHUP: the edit and the learned entry are saved"

# edit again, learn more, and let the periodic save find the edit
edit "
	\$0 == \"$O\" { d = 2; print; next }
	/^<kernel>/ { d = 0 }
	d == 2 && \$0 == \"file read $T/a\" { print \"file read $T/b\"; next }
	{ print }"
n=$(saves)
hm_enf_ok "$T/child" read "$T/b"		# a new domain, learning
hm_wait_for "[ \$(saves) -gt $n ]" 100 || hm_enf_fail "no periodic save"
hm_enf_log_has "was edited: reloading it before saving"
check_edit2() {
	check_edit1 "$1"
	lacks "$O" "file read $T/a" "$1"
	has "$O" "file read $T/b" "$1"
	has "$C" "file read $T/b" "$1"
}
check_edit2 "edit, then the periodic save"
hm_ok "an edit and a periodic save: the edits and the learned entries are saved"

# learn once more and stop: the last save keeps all of it
hm_enf_ok "$T/child" read "$T/c"
hm_enf_stop
check_edit2 "SIGTERM"
has "$C" "file read $T/c" "SIGTERM"
[ ! -e "$POL/.histmac.lock" ] || hm_enf_fail "the lock file outlived the enforcer"
hm_ok "SIGTERM: the edits and every learned entry are in the files"

# opens that taught nothing, counted but not saved yet (no periodic save
# in this run), survive an edit and SIGHUP: the reload adds them too
quiet() {
	"$HISTMAC" stats -p "$POL" --format json |
		jq -e --arg d "$1" '.convergence.domains[] |
			select(.domain == $d) | .quiet_events'
}
q0=$(quiet "$H") || hm_fail "stats: no '$H'"
hm_enf_start --save-interval 3600
hm_enf_ok "$T/helper" read "$T/b" "$T/c" "$T/b"
edit "
	\$0 == \"$O\" { d = 2; print; next }
	/^<kernel>/ { d = 0 }
	d == 2 && /^use_profile / { print \"use_profile 1\"; next }
	{ print }"
n=$(saves)
kill -HUP "$DPID"
hm_wait_for "[ \$(saves) -gt $n ]" 100 || hm_enf_fail "no save after SIGHUP"
q1=$(quiet "$H") || hm_fail "stats: no '$H'"
[ "$q1" -eq $((q0 + 3)) ] ||
	hm_enf_fail "quiet events of '$H': $q1 after the reload, $q0 before 3 more"
acl "$O" | grep -qx "use_profile 1" ||
	{ cat "$dp" >&2; hm_enf_fail "the profile edit of '$O' was lost"; }
hm_enf_stop
hm_ok "an edit and SIGHUP: the quiet counts not saved yet are kept"
