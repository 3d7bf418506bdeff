# shellcheck shell=bash
# tests/e2e/service_lib.sh - what the per-service tests (t_service_*.sh)
# share: a real Debian service, started by its init script under the
# private auditd with `histmac rules` loaded, through docs/PRODUCTION.md's
# workflow: learn one period, patternize --apply, check a second period of
# the same kinds of work with other names, attacks, and the enforcer in
# permissive mode beside check.  Source it after lib.sh.
#
#   hm_svc_begin [PROC...]  `histmac rules` loaded, restricted to the
#                           login uids 4250-4299 of the test's runs as
#                           PRODUCTION.md advises for learning one service
#                           (the rest of the machine - other builds and
#                           tests - would write gigabytes); the policy
#                           dir is $POL; skips when a PROC (the service's
#                           daemons) is running already: not ours to touch
#   hm_svc_run AUID CMD OUT run the shell command CMD with login uid AUID
#                           (every process it starts inherits it, daemons
#                           included) and keep its events in OUT: what
#                           the rest of the machine does meanwhile stays
#                           out (another uid)
#   hm_svc_learn LOG...     `histmac learn` then `histmac patternize
#                           --apply`, as PRODUCTION.md sections 2 and 3 say;
#                           HM_SVC_INIT_DOMAINS="PROG..." adds an
#                           `initialize_domain PROG from any` line by hand
#                           before patternize (PRODUCTION.md section 3);
#                           HM_SVC_RELEARN=1 learns the logs once more
#                           after it (issue 25's workaround for the
#                           domains patternize left unreachable), to
#                           measure the rest without that fix
#   hm_svc_suggested OUT PROG...
#                           patternize's output OUT suggests
#                           `initialize_domain PROG from any` for each
#                           PROG and for no helper or shell
#   hm_svc_check LOG NAME   `histmac check --format json` into
#                           $HM_TMP/NAME.json; sets SVC_DENIED,
#                           SVC_ACCESSES and SVC_PER_K (false denials per
#                           1,000 checked accesses, one decimal)
#   hm_svc_rate_ok NAME MAX fail when SVC_PER_K > MAX, listing the entries
#   hm_svc_reported NAME ERE WHAT [DOMAIN_RE]
#                           a violation of $HM_TMP/NAME.json (in a domain
#                           matching the jq regex DOMAIN_RE) has a `line`
#                           matching ERE
#   hm_svc_enforced NAME LINE WHAT [DOMAIN]
#                           the violation LINE of $HM_TMP/NAME.json (in
#                           DOMAIN) is a denial Landlock enforced, EACCES
#   hm_svc_refused_only NAME DOMAIN_RE WHAT LINE...
#                           list (stderr) the violations of
#                           $HM_TMP/NAME.json in domains matching the jq
#                           regex DOMAIN_RE; fail when Landlock enforced
#                           one whose line is none of LINE... (a
#                           sandboxed service's probes)
#   hm_svc_tmpfs DIR        mount a tmpfs at DIR (made, unmounted and
#                           removed at exit): the service's own files, the
#                           only place the enforcer marks ($T)
#   hm_svc_learn_period CMD period 1 (login uid 4251): run CMD, learn,
#                           patternize --apply, check its own log
#   hm_svc_check_period CMD period 2 (4252): run CMD, check it, at most
#                           HM_SVC_MAX_PER_K (5) false denials per 1,000
#   hm_svc_attack_period CMD period 3 (4253): run CMD under `histmac
#                           enforce --mode permissive --mark $T`
#                           (enforce_lib.sh), check it into p3.json
#   hm_svc_agree NAME       
#                           the enforcer's violations (domain and entry)
#                           and check's for the same period, limited to
#                           what fanotify sees (opens and execs of files
#                           under the marks), differ by at most 5 %
#   hm_svc_root_domain PROG PROG a root domain, as docs/SANDBOX.md
#                           advises for a daemon run under the sandbox:
#                           `initialize_domain PROG from any` added by
#                           hand when patternize did not suggest it, and
#                           --apply again re-roots what was learned below
#                           its init script; sets SVC_DENIED for period
#                           1's log against the re-rooted policy
#   hm_svc_listen BIN PORT  the place the attacks connect out to: BIN (a
#                           built tcp_listen.c) on PORT, stopped at exit
#   hm_svc_backup FILE...   put FILE back as it is now at exit (or remove
#                           it when it does not exist now)

. "$(dirname "${BASH_SOURCE[0]}")/enforce_lib.sh"
POL=$HM_TMP/policy
HM_ENF_N=0

hm_svc_begin() {
	local p
	hm_need auditd auditctl jq timeout
	hm_audit_start
	for p in "$@"; do
		! hm_running "$p" || hm_skip "a $p is already running; not touching it"
	done
	"$HISTMAC" rules |
		sed '/^-a always,/s/ -k / -F auid>=4250 -F auid<=4299 -k /' \
			>"$HM_TMP/histmac.rules"
	hm_audit_rules "$HM_TMP/histmac.rules"
}

hm_svc_run() {
	local auid=$1 cmd=$2 out=$3 rc=0 lost
	hm_audit_marker >/dev/null
	hm_audit_from_now
	lost=$(_hm_audit_status lost)
	# the uid is set before the shell's exec, so that exec is in the trail
	# too: learn then roots the run where the enforcer does (a process
	# it saw exec with unobserved history), not one level below
	# fd 9 (the audit lock) closed: a daemon the run starts must not
	# hold the lock should the test die before stopping it
	(echo "$auid" >/proc/self/loginuid && HM_CMD=$cmd exec bash -c 'eval "$HM_CMD"') \
		>"$out.out" 2>&1 9>&- || rc=$?
	hm_audit_marker >/dev/null
	_hm_svc_lost "$lost" "$out"
	# the rules keep only the test's login uids: the log between the
	# markers is the run (PAM gives cron jobs and ssh sessions their
	# user's uid, another one of the range)
	hm_audit_copy "$out.all"
	_hm_svc_own "$out.all" >"$out"
	rm -f "$out.all"
	grep -q "auid=$auid " "$out" || hm_fail "no events with auid $auid in the log"
	[ "$rc" = 0 ] || { cat "$out.out" >&2; hm_fail "the run of auid $auid exited $rc"; }
}

# Records the kernel dropped during a run (its audit backlog was full;
# the counter is the whole machine's): an access missing from the log is
# neither learned nor checked, so a result that lacks one is explained.
_hm_svc_lost() {
	local now
	now=$(_hm_audit_status lost)
	[ -n "$1" ] && [ -n "$now" ] && [ "$now" -gt "$1" ] || return 0
	echo "note: $(basename "$2"): the kernel lost $((now - $1)) audit records during the run (auditctl -s)" >&2
}

# The events of a log whose login uid is in the range: the rules say so
# already, but another test's rules loaded meanwhile would add the whole
# machine's events.  Two passes: the serials, then their records.
_hm_svc_own() {
	awk '
		function serial() {
			if (!match($0, /msg=audit\([0-9.]+:[0-9]+\)/)) return ""
			return substr($0, RSTART, RLENGTH)
		}
		NR == FNR {
			if (match($0, / auid=[0-9]+ /)) {
				a = substr($0, RSTART + 6, RLENGTH - 7) + 0
				if (a >= 4250 && a <= 4299) keep[serial()] = 1
			}
			next
		}
		serial() in keep' "$1" "$1"
}

hm_svc_learn() {
	"$HISTMAC" learn -q -p "$POL" -i "$@" >"$HM_TMP/learn.out" 2>&1 ||
		{ cat "$HM_TMP/learn.out" >&2; hm_fail "histmac learn failed"; }
	local prog
	for prog in ${HM_SVC_INIT_DOMAINS:-}; do
		echo "initialize_domain $prog from any" >>"$POL/exception_policy.conf"
	done
	"$HISTMAC" patternize -p "$POL" --apply >"$HM_TMP/patternize.out" 2>&1 ||
		{ cat "$HM_TMP/patternize.out" >&2; hm_fail "histmac patternize --apply failed"; }
	[ -z "${HM_SVC_RELEARN:-}" ] && return 0
	"$HISTMAC" learn -q -p "$POL" -i "$@" >"$HM_TMP/relearn.out" 2>&1 ||
		{ cat "$HM_TMP/relearn.out" >&2; hm_fail "histmac learn (again) failed"; }
}

hm_svc_suggested() {
	local out=$1 prog
	shift
	for prog in "$@"; do
		grep -qx "initialize_domain $prog from any" "$out" ||
			{ cat "$out" >&2; hm_fail "patternize did not suggest initialize_domain $prog"; }
	done
	! grep -E '^initialize_domain .*/(start-stop-daemon|env|spawn-fcgi|setsid|nohup|sh|bash|dash) ' "$out" ||
		hm_fail "patternize suggested initialize_domain for a helper or a shell (above)"
	hm_ok "patternize suggested initialize_domain for $*, and for no helper"
}

hm_svc_check() {
	local log=$1 name=$2 rc=0
	"$HISTMAC" check -p "$POL" -i "$log" --format json \
		>"$HM_TMP/$name.json" 2>"$HM_TMP/$name.err" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] ||
		{ cat "$HM_TMP/$name.err" >&2; hm_fail "check of $name exited $rc"; }
	SVC_DENIED=$(jq '.denied' "$HM_TMP/$name.json")
	SVC_ACCESSES=$(jq '.accesses' "$HM_TMP/$name.json")
	[ "$SVC_ACCESSES" -gt 0 ] || hm_fail "check of $name made no access check"
	SVC_PER_K=$(awk -v d="$SVC_DENIED" -v a="$SVC_ACCESSES" \
		'BEGIN { printf "%.1f", d * 1000 / a }')
}

# The violations of a check report, most frequent first (stderr).
_hm_svc_list() {
	jq -r '.violations | sort_by(-.count)[] |
		"\(.count)\t\(.domain)\t\(.line)"' "$HM_TMP/$1.json" | head -n 40 >&2
}

hm_svc_rate_ok() {
	local name=$1 max=$2
	if awk -v r="$SVC_PER_K" -v m="$max" 'BEGIN { exit !(r > m) }'; then
		_hm_svc_list "$name"
		hm_fail "$name: $SVC_DENIED of $SVC_ACCESSES accesses denied ($SVC_PER_K per 1,000 > $max)"
	fi
	# within the limit, still false denials: which, for the log
	[ "$SVC_DENIED" = 0 ] || _hm_svc_list "$name"
	hm_ok "$name: $SVC_DENIED of $SVC_ACCESSES accesses denied ($SVC_PER_K per 1,000)"
}

hm_svc_reported() {
	local name=$1 re=$2 what=$3 dom=${4:-}
	jq -r --arg d "$dom" '.violations[] | select(.domain | test($d)) | .line' \
		"$HM_TMP/$name.json" | grep -Eq -- "$re" ||
		{ _hm_svc_list "$name"; hm_fail "$name: $what is not reported (no entry /$re/)"; }
	hm_ok "$name: $what reported"
}

hm_svc_enforced() {
	local name=$1 line=$2 what=$3 dom=${4:-}
	jq -e --arg l "$line" --arg d "$dom" '.violations[] | select(.line == $l) |
		select($d == "" or .domain == $d) |
		select(.enforced >= 1 and .errno == "EACCES")' "$HM_TMP/$name.json" >/dev/null ||
		{ _hm_svc_list "$name"; hm_fail "$name: $what is not an enforced Landlock denial with EACCES"; }
	hm_ok "$name: $what is a Landlock denial (EACCES, enforced)"
}

hm_svc_refused_only() {
	local name=$1 dom=$2 what=$3 other
	shift 3
	jq -r --arg d "$dom" '.violations[] | select(.domain | test($d)) |
		"\(.count)\t\(.enforced // 0)\t\(.errno // "-")\t\(.domain)\t\(.line)"' \
		"$HM_TMP/$name.json" | sort -t"$(printf '\t')" -k4,4 -k5,5 >&2
	other=$(jq -r --arg d "$dom" '$ARGS.positional as $ok | .violations[] |
		select(.domain | test($d)) |
		select((.enforced // 0) > 0 and (.line | IN($ok[]) | not)) |
		"\(.domain): \(.line)"' --args "$@" <"$HM_TMP/$name.json")
	[ -z "$other" ] || hm_fail "$name: Landlock refused $what more than the probes: $other"
	hm_ok "$name: Landlock refused $what nothing the policy allows but the probes (check)"
}

hm_svc_tmpfs() {
	local dir=$1
	T=$dir
	[ ! -e "$dir" ] || hm_fail "$dir exists already; not touching it"
	mkdir -p "$dir"
	hm_on_exit "rmdir '$dir'"
	mount -t tmpfs -o size=64m,mode=0755 histmac-e2e "$dir" ||
		hm_fail "cannot mount a tmpfs on $dir"
	hm_on_exit "umount '$dir' 2>/dev/null || umount -l '$dir'"
}

hm_svc_root_domain() {
	local prog=$1
	if ! grep -qxF "initialize_domain $prog from any" "$POL/exception_policy.conf"; then
		echo "initialize_domain $prog from any" >>"$POL/exception_policy.conf"
		"$HISTMAC" patternize -p "$POL" --apply >"$HM_TMP/patternize2.out" 2>&1 ||
			{ cat "$HM_TMP/patternize2.out" >&2; hm_fail "histmac patternize --apply (re-root) failed"; }
	fi
	grep -qxF "<kernel> $prog" "$POL/domain_policy.conf" ||
		hm_fail "the policy has no root domain <kernel> $prog"
	hm_svc_check "$HM_TMP/p1.log" p1root
	hm_ok "$prog is a root domain; period 1 against the re-rooted policy: $SVC_DENIED of $SVC_ACCESSES accesses denied"
}

hm_svc_backup() {
	local f b
	for f in "$@"; do
		b=$HM_TMP/backup$(echo "$f" | tr / _)
		if [ -e "$f" ] || [ -L "$f" ]; then
			cp -a "$f" "$b"
			hm_on_exit "rm -rf '$f'; cp -a '$b' '$f'"
		else
			hm_on_exit "rm -rf '$f'"
		fi
	done
}

# "DOMAIN<TAB>file PERM PATH" lines on stdin, PATH under one of the marks
# ($1, space separated), one line per permission fanotify asks about
# (opens for read, write, append; execs), sorted, unique.  An append
# beside a write is the one check lists for a TOMOYO kernel: the
# enforcer asks write of an O_APPEND open (docs/ENFORCE.md).
hm_svc_listen() {
	local pid
	# without the audit lock's fd: a killed test leaves no holder behind
	"$1" "$2" >/dev/null 9>&- &
	pid=$!
	hm_on_exit "hm_stop_pid $pid"
}

_hm_svc_norm() {
	sed 's/ exec\.realpath=.*//' |
		awk -F'\t' -v marks="$1" '
			BEGIN { n = split(marks, m, " ") }
			{
				split($2, w, " "); np = split(w[2], p, "/")
				under = 0
				for (i = 1; i <= n; i++)
					if (index(w[3], m[i] "/") == 1) under = 1
				if (!under) next
				wr = 0
				for (i = 1; i <= np; i++) wr += p[i] == "write"
				for (i = 1; i <= np; i++)
					if (p[i] ~ /^(read|write|append|execute)$/ &&
					    (p[i] != "append" || !wr))
						print $1 "\tfile " p[i] " " w[3]
			}' | sort -u
}

# The enforcer's violations: its log's "permissive pid=N domain="D" ENTRY".
# Those of a domain that is a histmac are left out: another enforcer on
# the machine (a test beside this one, of this tree or another) reads the
# first line of a script the service runs, to name its exec
# (enforcer/exec.c), and that read is under the marks; the service runs
# no histmac, so check can never list it.
_hm_svc_enforce_set() {
	sed -n 's/.* permissive pid=[0-9]* domain="\(.*\)" \(file [a-z/]* .*\)$/\1\t\2/p' \
		"$DLOG" | grep -v '/histmac	' | _hm_svc_norm "$1"
}

# check's, from its report.
_hm_svc_check_set() {
	jq -r '.violations[] | select(.line | startswith("file ")) |
		"\(.domain)\t\(.line)"' "$HM_TMP/$1.json" | _hm_svc_norm "$2"
}

hm_svc_agree() {
	local name=$1 c e both only_c only_e max
	_hm_svc_check_set "$name" "$T" >"$HM_TMP/agree.check"
	_hm_svc_enforce_set "$T" >"$HM_TMP/agree.enforce"
	c=$(wc -l <"$HM_TMP/agree.check")
	e=$(wc -l <"$HM_TMP/agree.enforce")
	both=$(comm -12 "$HM_TMP/agree.check" "$HM_TMP/agree.enforce" | wc -l)
	only_c=$((c - both))
	only_e=$((e - both))
	max=$((c > e ? c : e))
	[ "$max" -gt 0 ] || hm_fail "$name: neither check nor the enforcer saw a violation under the marks"
	if [ $(((only_c + only_e) * 100)) -gt $((max * 5)) ]; then
		echo "--- check only:" >&2
		comm -23 "$HM_TMP/agree.check" "$HM_TMP/agree.enforce" | head -n 30 >&2
		echo "--- enforce only:" >&2
		comm -13 "$HM_TMP/agree.check" "$HM_TMP/agree.enforce" | head -n 30 >&2
		hm_fail "$name: enforce and check disagree: $both shared, $only_c check only, $only_e enforce only"
	fi
	hm_ok "$name: enforce agrees with check: $both violations shared, $only_c check only, $only_e enforce only"
	_hm_svc_exec_counters
}

# The enforcer's counters of execs it could not apply at once (a process
# gone before its exec event was read: cron's parent after its fork), so a
# run's log says how often the case arose.
_hm_svc_exec_counters() {
	sed -n 's/^  \(execs [a-z :]*gone[a-z ]*[a-z]\)  *\([0-9]*\)$/\1 \2/p' "$DLOG" |
		paste -sd ';' | sed 's/^/# enforcer: /; s/;/; /g'
}

hm_svc_learn_period() {
	hm_svc_run 4251 "$1" "$HM_TMP/p1.log"
	hm_svc_learn "$HM_TMP/p1.log"
	hm_svc_check "$HM_TMP/p1.log" p1
	hm_ok "period 1 against its own policy: $SVC_DENIED of $SVC_ACCESSES accesses denied ($SVC_PER_K per 1,000)"
}

hm_svc_check_period() {
	hm_svc_run 4252 "$1" "$HM_TMP/p2.log"
	hm_svc_check "$HM_TMP/p2.log" p2
	hm_svc_rate_ok p2 "${HM_SVC_MAX_PER_K:-5}"
}

hm_svc_attack_period() {
	hm_enf_start --mode permissive
	hm_svc_run 4253 "$1" "$HM_TMP/p3.log"
	hm_enf_stop
	hm_svc_check "$HM_TMP/p3.log" p3
}
