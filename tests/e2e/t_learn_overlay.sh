#!/bin/bash
# t_learn_overlay.sh - names on an overlay, as live images and container
# roots are built: a lower layer of files and symlinks below a tmpfs
# upper layer.  Audit's PATH record shows the inode of the layer's file,
# stat() through the overlay another device; learn and check must still
# see the same object and name it as TOMOYO does (through the symlink).
#
#   lower    a library and a configuration file read through symlinks
#            of the lower layer
#   upper    a file written through the overlay (upper only), read
#            through a symlink
#   copy-up  a lower file appended to through the overlay (copied up),
#            then read through a symlink
#   program  a program run through a symlink: the domain keeps the
#            link's name, as TOMOYO's does
#   check    the log checks clean against what was learned
#   sandbox  the program under `histmac sandbox` with that policy reads
#            the library through its link again, and is refused a file
#            of the overlay it did not read
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sandbox_lib.sh"

hm_need auditd auditctl mount umount
sbx_setup
hm_e2e_install try_open "$bin/try_open"

o=$HM_TMP/ovl
mkdir -p "$o/lower/lib" "$o/lower/etc/conf" "$o/lower/bin" "$o/lower/var" "$o/t" "$o/root"
echo lib >"$o/lower/lib/libz.so.1.2.13"
ln -s libz.so.1.2.13 "$o/lower/lib/libz.so.1"
echo conf >"$o/lower/etc/conf/app.conf"
ln -s conf/app.conf "$o/lower/etc/app.conf"
echo old >"$o/lower/etc/edited.conf"
echo other >"$o/lower/etc/other.conf"
ln -s edited.conf "$o/lower/etc/edited.link"
ln -s ../var/new.txt "$o/lower/etc/new.link"
cp "$bin/try_open" "$o/lower/bin/prog"
ln -s prog "$o/lower/bin/prog-link"
mount -t tmpfs -o mode=755 hm-ovl-upper "$o/t"
hm_on_exit "umount '$o/t'"
mkdir "$o/t/u" "$o/t/w"
mount -t overlay hm-ovl -o "lowerdir=$o/lower,upperdir=$o/t/u,workdir=$o/t/w" "$o/root"
hm_on_exit "umount '$o/root'"
r=$o/root
echo "initialize_domain $r/bin/prog-link from any" >"$pol/exception_policy.conf"

hm_audit_start
"$HISTMAC" rules >"$HM_TMP/rules"
hm_audit_rules "$HM_TMP/rules"

echo new >"$r/var/new.txt"			# upper only
echo more >>"$r/etc/edited.conf"		# copied up
for f in lib/libz.so.1 etc/app.conf etc/new.link etc/edited.link; do
	"$r/bin/prog-link" "$r/$f" | grep -q '^allowed' || hm_fail "workload: $f"
done
hm_audit_marker >/dev/null
hm_audit_copy "$HM_TMP/ovl.log"

"$HISTMAC" learn -p "$pol" -i "$HM_TMP/ovl.log" >"$HM_TMP/learn.out" 2>&1 ||
	hm_fail "learn: $(cat "$HM_TMP/learn.out")"
dp=$pol/domain_policy.conf
grep -qx "<kernel> $r/bin/prog-link" "$dp" ||
	hm_fail "the program's domain is not named by its link: $(grep -c '^<kernel>' "$dp") domains"
hm_ok "program: the domain keeps the link's name"
# the entries of that domain
awk -v d="<kernel> $r/bin/prog-link" '$0 == d { on = 1; next } /^<kernel>/ { on = 0 } on' \
	"$dp" >"$HM_TMP/dom.acl"
for want in lib/libz.so.1.2.13 etc/conf/app.conf var/new.txt etc/edited.conf; do
	grep -qx "file read $r/$want" "$HM_TMP/dom.acl" ||
		hm_fail "not learned: file read $r/$want; the domain has: $(grep "file read $r" "$HM_TMP/dom.acl" | tr '\n' ';')"
done
! grep -E "file read $r/(lib/libz.so.1|etc/app.conf|etc/new.link|etc/edited.link)\$" "$HM_TMP/dom.acl" ||
	hm_fail "learned a symlink's name as the object"
hm_ok "lower, upper and copy-up: each file learned by the name it resolves to"

"$HISTMAC" check -p "$pol" -i "$HM_TMP/ovl.log" >"$HM_TMP/check.out" 2>&1 || true
! grep -E "$r/" "$HM_TMP/check.out" ||
	hm_fail "check reports the overlay's files: $(grep -E "$r/" "$HM_TMP/check.out" | head -n 5)"
hm_ok "check: nothing of the overlay's files reported"

# ---- sandbox: the learned domain, enforced by Landlock on the overlay
sbx_policy_done
"$r/bin/prog-link" "$r/etc/other.conf" | grep -q '^allowed' ||
	hm_fail "control: other.conf unconfined"
"$bin/histmac" sandbox -p "$pol" -- "$r/bin/prog-link" "$r/lib/libz.so.1" \
	"$r/etc/other.conf" >"$HM_TMP/sbx.out" 2>"$HM_TMP/sbx.out.err" ||
	hm_fail "sandbox exited $?: $(cat "$HM_TMP/sbx.out.err")"
sbx_expect "$HM_TMP/sbx.out" "allowed $r/lib/libz.so.1"
sbx_expect "$HM_TMP/sbx.out" "denied $r/etc/other.conf: .*"
hm_ok "sandbox: the library read through its link, another file refused"
