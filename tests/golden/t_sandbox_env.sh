#!/bin/bash
# t_sandbox_env.sh - the preload's exec wrappers put LD_PRELOAD and
# HISTMAC_SANDBOX back into an environment a program cleaned
# (docs/SANDBOX.md "An environment cleaned by the program"), with the
# real library and glibc, without Landlock.  Each case starts a program
# with the library and a HISTMAC_SANDBOX in state '!' (applied for this
# exec: its constructor needs no table); the program cleans the
# environment and runs /usr/bin/env, which prints what it got (its own
# preload finds no table: it says so on stderr and keeps its bound):
#   env -i (execvp), env -i with an LD_PRELOAD of its own (the library
#   goes first), Python's posix_spawn and posix_spawnp, fexecve
#   (os.execve on a descriptor) and subprocess (a vfork()ed child): put
#   back;
#   env -i with 1,100 variables: not put back, said as `preload`;
#   an environment that kept both, or a process outside any sandbox:
#   left as it is.  Needs $HISTMAC, $HM_BUILD and /usr/bin/python3.
. "$(dirname "$0")/lib.sh"

lib=${HM_BUILD:?}/libhistmac-sandbox.so
[ -r "$lib" ] || die "no $lib"
py=/usr/bin/python3	# the system one: a shim (pyenv) would lose the table first
[ -x "$py" ] || die "no $py"
val="7:0000000003:!:r:1:1:$tmp/nodir"
sbx="HISTMAC_SANDBOX=7:0000000003:[.-]:r:1:1:$tmp/nodir"

run() {	# NAME CMD...: $tmp/NAME is the environment env printed
	local name=$1 rc=0
	shift
	LD_PRELOAD=$lib HISTMAC_SANDBOX=$val "$@" >"$tmp/$name" \
		2>"$tmp/$name.err" || rc=$?
	[ "$rc" = 0 ] || fail "$name: exit $rc: $(head -c 500 "$tmp/$name.err")"
}
lines() {	# NAME PATTERN N: N lines of NAME's environment match
	local n
	n=$(grep -cx -- "$2" "$tmp/$1" || true)
	[ "$n" = "$3" ] || fail "$1: $n lines '$2', want $3: $(tr '\n' ' ' <"$tmp/$1" | head -c 600)"
}
restored() {	# NAME [LD_PRELOAD VALUE]
	lines "$1" "$sbx" 1
	lines "$1" "LD_PRELOAD=${2:-$lib}" 1
	lines "$1" "LD_PRELOAD=.*" 1
}

run envi /usr/bin/env -i /usr/bin/env
restored envi
[ "$(wc -l <"$tmp/envi")" = 2 ] || fail "envi: more than the two variables: $(cat "$tmp/envi")"
run own /usr/bin/env -i LD_PRELOAD=libm.so.6 /usr/bin/env
restored own "$lib libm.so.6"
run spawn "$py" -c 'import os; os.waitpid(os.posix_spawn("/usr/bin/env", ["env"], {}), 0)'
restored spawn
run spawnp "$py" -c 'import os; os.waitpid(os.posix_spawnp("env", ["env"], {}), 0)'
restored spawnp
run fexecve "$py" -c 'import os; os.execve(os.open("/usr/bin/env", os.O_RDONLY), ["env"], {})'
restored fexecve
run vfork "$py" -c 'import subprocess; subprocess.run(["/usr/bin/env"], env={})'
restored vfork

run big /usr/bin/env -i $(printf 'V%d=x ' {1..1100}) /usr/bin/env
lines big "HISTMAC_SANDBOX=.*" 0
lines big "LD_PRELOAD=.*" 0
lines big "V1100=x" 1
grep -q "^histmac-sandbox: /usr/bin/env: cannot narrow (preload)" "$tmp/big.err" ||
	fail "big: not said as preload: $(cat "$tmp/big.err")"

run kept /usr/bin/env /usr/bin/env
restored kept
rc=0
LD_PRELOAD=$lib /usr/bin/env -i /usr/bin/env >"$tmp/outside" 2>&1 || rc=$?
[ "$rc" = 0 ] && [ ! -s "$tmp/outside" ] ||
	fail "outside a sandbox the library added something: $(cat "$tmp/outside")"

finish t_sandbox_env
