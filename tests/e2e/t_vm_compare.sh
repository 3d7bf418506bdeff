#!/usr/bin/env bash
# The kernel oracle's judges without a kernel: tests/vm/compare.py and
# tests/vm/denials.py on policies and an audit written here.  compare.py
# must split merged permissions, accept a histmac entry with fewer
# conditions or a pattern that matches (via histmac match), file each
# difference under its workload, leave out the kinds histmac does not
# learn, and exit 1 only for what TOMOYO has and histmac lacks.
# denials.py must count per workload, skip domain-creation records and
# read the misbehaviour bits.
set -eu
. "$HM_SRC/tests/e2e/lib.sh"
command -v python3 >/dev/null || hm_skip "missing command python3"

vm=$HM_SRC/tests/vm
s=$HM_TMP/share
mkdir -p "$s/tomoyo" "$s/histmac"
w='<kernel> /run/hm/init /run/hm/wl/demo'
cat >"$s/tomoyo/domain_policy" <<TOMOYO
<kernel>
use_profile 1

<kernel> /run/hm/init
use_profile 1

file execute /run/hm/wl/demo exec.realpath="/run/hm/wl/demo" exec.argv[0]="/run/hm/wl/demo"

$w
use_profile 1
use_group 0

file read/write /tmp/a
file getattr /etc/passwd
file ioctl /dev/tty 0x5401
misc env HOME
file read /tmp/tmp.Xy12ab
file create /tmp/new 0644
network inet stream connect 127.0.0.1 80

$w /usr/bin/cat
use_profile 1

file read /etc/hostname
TOMOYO
cat >"$s/histmac/domain_policy.conf" <<HISTMAC
# histmac
<kernel>
use_profile 1

<kernel> /run/hm/init
use_profile 1

file execute /run/hm/wl/demo exec.realpath="/run/hm/wl/demo"
file execute /run/hm/collect

$w
use_profile 1

file read /tmp/a
file write /tmp/a
file read /tmp/tmp.\\*
file create /tmp/new 0666
file unlink /tmp/extra

$w /bin/cat
use_profile 1

file read /etc/hostname

<kernel> /usr/bin/dash
use_profile 1
HISTMAC

set +e
python3 "$vm/compare.py" "$s" --histmac "$HISTMAC" >"$HM_TMP/cmp.txt"
rc=$?
set -e
cat "$HM_TMP/cmp.txt"
[ "$rc" = 1 ] || hm_fail "compare.py exit $rc, want 1 (TOMOYO has entries histmac lacks)"
has() { grep -qxF -- "$1" "$HM_TMP/cmp.txt" || hm_fail "compare.py did not say: $1"; }
hasnt() { ! grep -qF -- "$1" "$HM_TMP/cmp.txt" || hm_fail "compare.py said: $1"; }
has "domains only in TOMOYO: 1"
has "domains only in histmac: 1"
has "entries only in TOMOYO: 3"
has "entries only in histmac: 3"
has "## workload demo"
has "domain only in TOMOYO: $w /usr/bin/cat"
has "    (other side: $w /bin/cat)"
has "  - file create /tmp/new 0644"
has "  + file create /tmp/new 0666"
has "  - network inet stream connect 127.0.0.1 80"
has "  + file unlink /tmp/extra"
# fewer conditions cover more; a pattern covers what it matches; merged
# permissions split; unlearned kinds, the harness tail and the
# pre-activation domain are no finding
hasnt "file execute /run/hm/wl/demo"
hasnt "/tmp/tmp."
hasnt "file read /tmp/a"
hasnt "file write /tmp/a"
hasnt "getattr /etc"
hasnt "ioctl /dev/tty"
hasnt "- misc env HOME"
hasnt "/run/hm/collect"
has "domain only in histmac: <kernel> /usr/bin/dash"
hm_ok "compare.py: conditions, patterns, merged permissions, workloads"

# Nothing TOMOYO has is missing: exit 0
{
	cat "$s/histmac/domain_policy.conf"
	printf '\n%s /usr/bin/cat\nuse_profile 1\nfile read /etc/hostname\n' "$w"
	printf '\n%s\nfile create /tmp/new 0644\nnetwork inet stream connect 127.0.0.1 80\n' "$w"
} >"$HM_TMP/h.conf"
mv "$HM_TMP/h.conf" "$s/histmac/domain_policy.conf"
python3 "$vm/compare.py" "$s" --histmac "$HISTMAC" >"$HM_TMP/cmp2.txt" ||
	{ cat "$HM_TMP/cmp2.txt"; hm_fail "compare.py found a difference where histmac has all"; }
hm_ok "compare.py: exit 0 when histmac has everything TOMOYO learned"

# denials.py: three-line records separated by NUL
hdr='#2026/12/04 10:00:00# profile=3 mode=enforcing granted=no (global-pid=9) task={ pid=9 }'
{
	printf '%s\n%s\nfile read /etc/shadow\n\0' "$hdr" "$w"
	printf '%s\n%s\nfile execute /usr/bin/od\n\0' "$hdr" '<kernel> /run/hm/init /run/hm/wl/script_chain'
	printf '%s\n%s\nuse_profile 3\n\0' "$hdr" "$w /usr/bin/new"
	printf '%s\n<kernel>\nfile execute /run/hm/init\n\0' "$hdr"
} >"$s/tomoyo/audit"
printf 'active 4.0\ndemo 0 4.1 4.5\nscript_chain 0 4.5 5.0\nmisbehave 0\n' >"$s/status"
set +e
python3 "$vm/denials.py" "$s" enforce >"$HM_TMP/den.txt"
rc=$?
set -e
cat "$HM_TMP/den.txt"
[ "$rc" = 1 ] || hm_fail "denials.py exit $rc, want 1 (demo was denied)"
grep -qx 'demo: 1 denials, exit 0' "$HM_TMP/den.txt" || hm_fail "demo's denial not counted once"
grep -qx 'script_chain: 0 denials, exit 0' "$HM_TMP/den.txt" ||
	hm_fail "the misbehaviour counted as script_chain's"
grep -qx 'harness: 1 denials, exit - (not counted)' "$HM_TMP/den.txt" ||
	hm_fail "<kernel> not filed as harness"
grep -qx 'misbehave read-shadow: denied' "$HM_TMP/den.txt" || hm_fail "misbehave bits misread"

# demo clean, the unlearned exec allowed: still a finding
sed -i 's|^file read /etc/shadow$|use_profile 3|' "$s/tomoyo/audit"
printf 'active 4.0\ndemo 0 4.1 4.5\nscript_chain 0 4.5 5.0\nmisbehave 2\n' >"$s/status"
if python3 "$vm/denials.py" "$s" enforce >"$HM_TMP/den2.txt"; then
	cat "$HM_TMP/den2.txt"
	hm_fail "an allowed misbehaviour passed"
fi
grep -qx 'misbehave exec-unlearned: allowed' "$HM_TMP/den2.txt" || hm_fail "misbehave bit 2 misread"
grep -qx 'demo: 0 denials, exit 0' "$HM_TMP/den2.txt" || hm_fail "demo still denied"
# and all clean: exit 0
printf 'active 4.0\ndemo 0 4.1 4.5\nscript_chain 0 4.5 5.0\nmisbehave 0\n' >"$s/status"
python3 "$vm/denials.py" "$s" enforce >"$HM_TMP/den3.txt" ||
	{ cat "$HM_TMP/den3.txt"; hm_fail "denials.py found something in a clean run"; }
hm_ok "denials.py: per workload, creation records skipped, misbehaviours"
