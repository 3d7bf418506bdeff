# shellcheck shell=bash
# tests/e2e/trace_lib.sh - the workload the t_trace_*.sh tests learn with
# `histmac learn -- COMMAND` (source it after lib.sh).
#
#   trace_workload DIR    write DIR/work.sh (the workload), DIR/tl
#                         (tests/e2e/trace_load.c) and its files in DIR/d
#                         and sets trace_cmd (the command line, an array)
#   trace_check_policy POLICY  every domain and entry the workload teaches
#   trace_learned POLICY DOMAIN ENTRY   ENTRY is in DOMAIN's ACL, else fail
#   trace_absent POLICY DOMAIN ENTRY    ENTRY is not, else fail
#
# The workload, a shell script: programs executed, a file read, written,
# moved and removed, a directory made and removed, a failed open; a
# program with a second thread that writes and a third that executes
# /bin/true (an exec from a thread other than the leader); a posix_spawn
# (vfork) of cat; two failed execs; a TCP listen, connect and accept on
# 127.0.0.1 and a UDP send; and last, exec of a program that kills
# itself with SIGTERM, so the command's status is 143.

trace_workload() {
	local t=$1
	mkdir -p "$t/d"
	hm_e2e_install trace_load "$t/tl"
	echo in >"$t/d/in"
	echo spawned >"$t/d/spawned"
	echo '#!/bin/sh' >"$t/d/notexec"
	cat >"$t/work.sh" <<'EOS'
#!/bin/sh
set -e
d=$1
tl=$2
cat "$d/in" >"$d/out"
ls "$d" >/dev/null
mkdir "$d/sub"
mv "$d/out" "$d/sub/out2"
rm "$d/sub/out2"
rmdir "$d/sub"
cat "$d/missing" 2>/dev/null || true
"$tl" thread "$d"
"$tl" spawn "$d" >/dev/null
"$tl" failexec "$d"
"$tl" net "$d"
exec "$tl" die "$d"
EOS
	chmod 755 "$t" "$t/d" "$t/work.sh"
	trace_cmd=(sh "$t/work.sh" "$t/d" "$t/tl")
	trace_dir=$t
}

# The domains of the workload, by what executed them.
trace_domains() {
	local sh_dom="<kernel> /usr/bin/sh"
	tl_dom="$sh_dom $trace_dir/tl"
	sh_d=$sh_dom
}

trace_learned() {
	HM_D=$2 HM_E=$3 awk '/^<kernel>/ { dom = $0; next }
		dom == ENVIRON["HM_D"] && $0 == ENVIRON["HM_E"] { found = 1 }
		END { exit !found }' "$1/domain_policy.conf" ||
		{ cat "$1/domain_policy.conf" >&2; hm_fail "'$3' not learned in '$2'"; }
}

trace_absent() {
	! HM_D=$2 HM_E=$3 awk '/^<kernel>/ { dom = $0; next }
		dom == ENVIRON["HM_D"] && $0 == ENVIRON["HM_E"] { found = 1 }
		END { exit !found }' "$1/domain_policy.conf" ||
		hm_fail "'$3' learned in '$2'"
}

# What the workload must have taught POLICY.
trace_check_policy() {
	local p=$1 d=$trace_dir/d
	trace_domains
	trace_learned "$p" "$sh_d" "file execute $trace_dir/tl"
	trace_learned "$p" "$sh_d" "file create $d/out 0666"
	trace_learned "$p" "$sh_d /usr/bin/cat" "file read $d/in"
	trace_learned "$p" "$sh_d /usr/bin/ls" "file read $d/"
	trace_learned "$p" "$sh_d /usr/bin/mkdir" "file mkdir $d/sub/ 0777"
	trace_learned "$p" "$sh_d /usr/bin/mv" "file rename $d/out $d/sub/out2"
	trace_learned "$p" "$sh_d /usr/bin/rm" "file unlink $d/sub/out2"
	trace_learned "$p" "$sh_d /usr/bin/rmdir" "file rmdir $d/sub/"
	# the second thread's open, in its process's domain
	trace_learned "$p" "$tl_dom" "file create $d/thread 0644"
	trace_learned "$p" "$tl_dom" "file write $d/thread"
	# the third thread's exec, and posix_spawn's
	trace_learned "$p" "$tl_dom" "file execute /usr/bin/true"
	trace_learned "$p" "$tl_dom" "file execute /usr/bin/cat"
	trace_learned "$p" "$tl_dom /usr/bin/cat" "file read $d/spawned"
	grep -qx "$tl_dom /usr/bin/true" "$p/domain_policy.conf" ||
		hm_fail "no domain for the exec from a thread"
	trace_learned "$p" "$tl_dom" "file read $d/in"
	# the network: the kernel's port for bind 0, the ranges learning
	# widens connect's and send's ephemeral ports to
	trace_learned "$p" "$tl_dom" "network inet stream bind/listen 127.0.0.1 0"
	trace_learned "$p" "$tl_dom" "network inet stream connect 127.0.0.1 32768-60999"
	trace_learned "$p" "$tl_dom" "network inet dgram send 127.0.0.1 32768-60999"
	# failed: an open (ENOENT) and two execs learn nothing
	trace_absent "$p" "$sh_d /usr/bin/cat" "file read $d/missing"
	trace_absent "$p" "$tl_dom" "file execute $d/missing"
	trace_absent "$p" "$tl_dom" "file execute $d/notexec"
	grep -q "$d/missing\|$d/notexec" "$p/domain_policy.conf" &&
		hm_fail "a failed call was learned"
	return 0
}
