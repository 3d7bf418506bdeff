#!/usr/bin/env bash
# histmac sandbox end to end, under the real auditd, as user nobody:
#  1. learn a small chain from the audit trail: script.sh reads a config
#     file, connects to a local TCP port and runs helper.sh, which writes
#     a file (initialize_domain makes script.sh a root domain, so the
#     learning and the sandboxed run name the same domains);
#  2. run it under `histmac sandbox --mode enforcing`: what was learned
#     works; reading an unlearned file, connecting to an unlearned port
#     (someone listens there) and creating a file in an unlearned
#     directory fail with EACCES; helper.sh, narrowed by the preload
#     library, cannot read the config only script.sh's domain holds;
#  3. the same script run without the sandbox does all of that (so the
#     sandbox is what denied it);
#  4. the kernel's Landlock records are in the audit log and
#     `histmac check` lists each denial as enforced, in the right domain.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need auditd auditctl setpriv
[ -r "$HM_BUILD/libhistmac-sandbox.so" ] || hm_fail "no $HM_BUILD/libhistmac-sandbox.so"

# Everything nobody runs or reads lives in our temp dir.
chmod 755 "$HM_TMP"
bin=$HM_TMP/bin
w=$HM_TMP/w
pol=$HM_TMP/policy
mkdir -p "$bin" "$w/etc" "$w/out" "$w/other" "$pol"
cp "$HISTMAC" "$bin/histmac"
cp "$HM_BUILD/libhistmac-sandbox.so" "$bin/"
hm_e2e_install tcp_listen "$bin/tcp_listen"
echo "name=demo" >"$w/etc/app.conf"
echo "s3cret" >"$w/etc/secret"
chmod 777 "$w/out" "$w/other"

# try NAME CODE: run shell CODE (builtins only: no exec, so no new
# domain), print "allowed NAME" or "denied NAME: the error".
cat >"$w/script.sh" <<'EOS'
#!/bin/bash
# script.sh MODE PORT [OTHER_PORT]
w=${0%/*}
try() {
	local err
	if err=$( { eval "$2"; } 2>&1 ); then
		echo "allowed $1"
	else
		echo "denied $1: $err"
	fi
}
try read-config 'read -r line <"$w/etc/app.conf"'
try connect "exec 3<>/dev/tcp/127.0.0.1/$2"
"$w/helper.sh" "$1"
if [ "$1" = enforce ]; then
	try read-secret 'read -r line <"$w/etc/secret"'
	try connect-other "exec 3<>/dev/tcp/127.0.0.1/$3"
	try create-other ': >"$w/other/new"'
fi
exit 0
EOS
cat >"$w/helper.sh" <<'EOS'
#!/bin/sh
# helper.sh MODE
w=${0%/*}
if err=$( (echo result >"$w/out/result") 2>&1 ); then
	echo "allowed write-result"
else
	echo "denied write-result: $err"
fi
if [ "$1" = enforce ]; then
	if err=$( (read -r line <"$w/etc/app.conf") 2>&1 ); then
		echo "allowed helper-read-config"
	else
		echo "denied helper-read-config: $err"
	fi
fi
EOS
chmod 755 "$w/script.sh" "$w/helper.sh"
echo "initialize_domain $w/script.sh from any" >"$pol/exception_policy.conf"
script_dom="<kernel> $w/script.sh"
helper_dom="$script_dom $w/helper.sh"

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
}

# Two ports below the ephemeral range (learning would widen those).
for try in 1 2 3 4 5 6 7 8; do
	p1=$((20000 + RANDOM % 5000))
	"$bin/tcp_listen" "$p1" "$((p1 + 1))" >"$HM_TMP/ports" 2>/dev/null &
	listener=$!
	hm_wait_for "[ -s '$HM_TMP/ports' ] || ! kill -0 $listener" 30 || true
	[ -s "$HM_TMP/ports" ] && break
	wait "$listener" 2>/dev/null || true
done
[ -s "$HM_TMP/ports" ] || hm_fail "no free port pair for the listener"
hm_on_exit "kill $listener 2>/dev/null; wait $listener 2>/dev/null"
read -r port port2 <"$HM_TMP/ports"

# ------------------------------------------------------------- 1. learn
hm_audit_start
"$bin/histmac" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"
as_nobody "$w/script.sh" learn "$port" >"$HM_TMP/learn.out"
grep -qx "allowed read-config" "$HM_TMP/learn.out" &&
	grep -qx "allowed connect" "$HM_TMP/learn.out" &&
	grep -qx "allowed write-result" "$HM_TMP/learn.out" ||
	{ cat "$HM_TMP/learn.out" >&2; hm_fail "the learning run failed"; }
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/learn.log"
"$bin/histmac" learn -q -i "$HM_TMP/learn.log" -p "$pol" ||
	hm_fail "histmac learn exited $?"
for d in "$script_dom" "$helper_dom"; do
	grep -qxF "$d" "$pol/domain_policy.conf" || hm_fail "'$d' was not learned"
done
chmod -R a+rX "$pol"	# saved 0600: nobody runs the sandbox
hm_ok "learned $script_dom and its helper"

# ------------------------------------------ 3. control: no sandbox at all
rm -f "$w/out/result"
as_nobody "$w/script.sh" enforce "$port" "$port2" >"$HM_TMP/free.out"
[ "$(grep -c '^allowed' "$HM_TMP/free.out")" = 7 ] ||
	{ cat "$HM_TMP/free.out" >&2; hm_fail "unconfined, the script should do all 7 things"; }
rm -f "$w/other/new" "$w/out/result"

# ---------------------------------------------- 2. the sandboxed run
hm_audit_from_now
rc=0
as_nobody "$bin/histmac" sandbox -p "$pol" --mode enforcing -- \
	"$w/script.sh" enforce "$port" "$port2" >"$HM_TMP/run.out" 2>"$HM_TMP/run.err" || rc=$?
[ "$rc" = 0 ] ||
	{ cat "$HM_TMP/run.err" "$HM_TMP/run.out" >&2; hm_fail "histmac sandbox exited $rc"; }
expect() {
	grep -qx "$1" "$HM_TMP/run.out" ||
		{ cat "$HM_TMP/run.out" "$HM_TMP/run.err" >&2; hm_fail "no line '$1'"; }
}
expect "allowed read-config"
expect "allowed connect"
expect "allowed write-result"
[ "$(cat "$w/out/result")" = result ] || hm_fail "the helper's file was not written"
hm_ok "learned actions succeed in the sandbox"
expect "denied read-secret: .*$w/etc/secret: Permission denied"
expect "denied connect-other: .*Permission denied.*"
expect "denied create-other: .*$w/other/new: Permission denied"
[ ! -e "$w/other/new" ] || hm_fail "$w/other/new was created"
hm_ok "unlearned read, connect and create fail with EACCES"
expect "denied helper-read-config: .*$w/etc/app.conf: Permission denied"
hm_ok "the helper is narrowed to its own domain"

# --------------------------------------------- 4. audit trail and check
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/run.log"
access_rec() {	# the Landlock access record of blockers $1 with $2 in it
	grep -E "type=(UNKNOWN\[1423\]|LANDLOCK_ACCESS) .*blockers=$1" \
		"$HM_TMP/run.log" | grep -qF "$2" ||
		hm_fail "no Landlock record blockers=$1 ... $2 in the log"
}
access_rec fs.read_file "path=\"$w/etc/secret\""
access_rec fs.read_file "path=\"$w/etc/app.conf\""
access_rec net.connect_tcp "dest=$port2"
access_rec fs.make_reg "path=\"$w/other\""
hm_ok "the denials are Landlock records in the audit log"

rc=0
"$bin/histmac" check -p "$pol" -i "$HM_TMP/run.log" >"$HM_TMP/check.out" || rc=$?
[ "$rc" = 1 ] || hm_fail "histmac check exited $rc, not 1 (denials)"
# enforced DOMAIN ENTRY: ENTRY is listed under DOMAIN below a comment
# saying the kernel denied it.
enforced() {
	HM_D=$1 HM_E=$2 awk '
		/^<kernel>/ { dom = $0; next }
		dom == ENVIRON["HM_D"] && $0 == ENVIRON["HM_E"] &&
			prev ~ /enforced: Landlock denied [1-9]/ { found = 1 }
		{ prev = $0 }
		END { exit !found }' "$HM_TMP/check.out" ||
		{ cat "$HM_TMP/check.out" >&2; hm_fail "check lists no enforced '$2' in '$1'"; }
}
enforced "$script_dom" "file read $w/etc/secret"
enforced "$script_dom" "network inet stream connect 127.0.0.1 $port2"
enforced "$script_dom" "file create $w/other/\\* 0666"
enforced "$helper_dom" "file read $w/etc/app.conf"
hm_ok "histmac check lists the enforced denials in their domains"
