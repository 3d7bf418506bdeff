#!/usr/bin/env bash
# The sandbox's table survives what programs do to descriptors (issue 21
# #2), and a program that cannot narrow is said, once, on the sandbox's
# stderr (#3).  As nobody, hand-written policy: parent.sh may read
# pfile; its child child.sh only cfile.  Each way parent.sh starts the
# child, the child must read cfile and fail on pfile with EACCES:
#   fd3      bash's `exec 3<>FILE; exec 3>&-`
#   tcp      the issue's idiom: `exec 3<>/dev/tcp/127.0.0.1/PORT` (someone
#            listens there, the policy grants the connect), `exec 3>&-`
#   tablefd  the script closes the very descriptor the table is on
#   daemon   a daemon-like program closes every descriptor above 2
#            (close_range) before it execs the child
# and two that cannot narrow:
#   gone     the daemon also touches the table's copy (chmod: its ctime
#            changes, so it is not believed): reported, and with --strict
#            the child does not start (exit 126)
#   nopre    child.sh run with 1,100 more variables, too many for the
#            preload to put LD_PRELOAD back in (`LD_PRELOAD= child.sh`
#            alone gets it back): the child keeps its parent's bound and
#            reads pfile (the control: the test sees a lost narrowing),
#            reported as run without the preload
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

sbx_setup
sbx_cc closefds
sbx_cc tcp_listen
"$bin/tcp_listen" 0 >"$HM_TMP/port" 2>/dev/null &
listener=$!
hm_on_exit "kill $listener 2>/dev/null; wait $listener 2>/dev/null"
hm_wait_for "[ -s '$HM_TMP/port' ] || ! kill -0 $listener" 50 || true
read -r port <"$HM_TMP/port" || hm_fail "the TCP listener did not start"
echo p >"$w/pfile"
echo c >"$w/cfile"
: >"$w/scratch"
chmod 644 "$w/pfile" "$w/cfile"
chmod 666 "$w/scratch"
bash=$(readlink -f /bin/bash)
envp=$(readlink -f /usr/bin/env)

cat >"$w/parent.sh" <<'EOS'
#!/bin/bash
w=${0%/*}
bin=$1 mode=$2 port=$3
read -r l <"$w/pfile" && echo "parent allowed pfile"
case $mode in
fd3)	exec 3<>"$w/scratch"; exec 3>&-; "$w/child.sh" "$mode" ;;
tcp)	exec 3<>"/dev/tcp/127.0.0.1/$port" && echo "parent connected"
	exec 3>&-
	"$w/child.sh" "$mode" ;;
tablefd)
	n=${HISTMAC_SANDBOX%%:*}
	eval "exec $n>&-"
	[ -e "/proc/self/fd/$n" ] && echo "parent: fd $n still open"
	"$w/child.sh" "$mode" ;;
daemon)	"$bin/closefds" "$w/child.sh" "$mode" ;;
gone)	"$bin/closefds" --chmod "${HISTMAC_SANDBOX##*:}/table" "$w/child.sh" "$mode" ;;
nopre)	for i in {1..1100}; do export "V$i=x"; done
	LD_PRELOAD= "$w/child.sh" "$mode" ;;
esac
echo "parent: child exited $?"
EOS
sbx_try_read_lib
cat >"$w/child.sh" <<'EOS'
#!/bin/bash
w=${0%/*}
. "$w/try_read.sh"
try_read "$1 child" cfile pfile
EOS
chmod 755 "$w/parent.sh" "$w/child.sh"

P="<kernel> $w/parent.sh"
C="$P $w/child.sh"
D="$P $bin/closefds"
E="$P $envp"
echo "initialize_domain $w/parent.sh from any" >"$pol/exception_policy.conf"
libs=$(sbx_libs "$bash" "$bin/closefds" "$envp")
{
	echo "$P"
	echo "$libs"
	echo "file read $w/parent.sh"
	echo "file read $w/pfile"
	echo "file read/write $w/scratch"
	echo "network inet stream connect 127.0.0.1 $port"
	echo "file execute $w/child.sh"
	echo "file execute $bin/closefds"
	echo "file execute $envp"
	for d in "$C" "$D $w/child.sh" "$E $w/child.sh"; do
		echo
		echo "$d"
		echo "$libs"
		echo "file read $w/child.sh"	# bash reads the script it runs
		echo "file read $w/try_read.sh"
		echo "file read $w/cfile"
	done
	for d in "$D" "$E"; do
		echo
		echo "$d"
		echo "$libs"
		echo "file execute $w/child.sh"
	done
} >"$pol/domain_policy.conf"
sbx_policy_done

run() {	# OUT [--strict] MODE
	local out=$1 rc=0
	shift
	as_nobody "$bin/histmac" sandbox --stats -p "$pol" "${@:1:$#-1}" -- \
		"$w/parent.sh" "$bin" "${!#}" "$port" >"$out" 2>"$out.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$out" "$out.err" >&2; hm_fail "histmac sandbox exited $rc"; }
}
lost() {	# FILE KIND: the sandbox said, once, that child.sh cannot narrow
	sbx_once "$1" "^histmac sandbox: $w/child.sh (pid [0-9]*) .*$2"
}

for mode in fd3 tcp tablefd daemon; do
	run "$HM_TMP/$mode" "$mode"
	sbx_expect "$HM_TMP/$mode" "parent allowed pfile"
	sbx_expect "$HM_TMP/$mode" "$mode child allowed cfile"
	sbx_expect "$HM_TMP/$mode" "$mode child denied pfile: Permission denied"
	sbx_expect "$HM_TMP/$mode.err" "sandbox: programs that could not narrow: 0 .*"
	hm_ok "$mode: the child is narrowed to its own domain"
done
sbx_expect "$HM_TMP/tcp" "parent connected"
[ "$(grep -c "fd [0-9]* still open" "$HM_TMP/tablefd")" = 0 ] ||
	hm_fail "tablefd: the script did not close the table's descriptor"

run "$HM_TMP/nopre" nopre
sbx_expect "$HM_TMP/nopre" "nopre child allowed pfile"
lost "$HM_TMP/nopre" "keeps its parent's bound: executed without the preload"
sbx_expect "$HM_TMP/nopre.err" "sandbox: programs that could not narrow: 1 .* preload 1 .*"
hm_ok "control: a child without the preload reads its parent's file, and that is reported once"

run "$HM_TMP/gone" gone
sbx_expect "$HM_TMP/gone" "gone child allowed cfile"
lost "$HM_TMP/gone" "keeps its parent's bound: the table is gone"
hm_ok "gone: a changed copy is not believed, and that is reported once"

run "$HM_TMP/gone-strict" --strict gone
grep -q "child allowed" "$HM_TMP/gone-strict" &&
	{ cat "$HM_TMP/gone-strict" >&2; hm_fail "--strict: the child ran without its table"; }
sbx_expect "$HM_TMP/gone-strict" "parent: child exited 126"
lost "$HM_TMP/gone-strict" "refused (--strict), it cannot narrow: the table is gone"
hm_ok "gone, --strict: the child does not start"
