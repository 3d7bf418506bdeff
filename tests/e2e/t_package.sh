#!/bin/bash
# t_package.sh - the Debian package, as an administrator gets it: built
# with dpkg-buildpackage from a copy of this tree (no test suite inside),
# no lintian errors, installed with dpkg -i; the installed histmac runs
# with nothing from the source or build tree (version, man pages, its
# histmac.conf, the schema from its prefix, no test hooks), nothing is
# started; a purge leaves nothing behind.
set -eu
. "$(dirname "$0")/lib.sh"

hm_need dpkg-buildpackage dh lintian man git flock
exec 9>/run/histmac-pkg.lock
flock 9
if dpkg-query -W -f='${Status}' histmac 2>/dev/null | grep -q ' installed'; then
	hm_fail "a histmac package is installed already; not touching it"
fi
sample=$HM_SRC/samples/audit/apache2-sysv.log

# a copy of the tree as git sees it (tracked and new files, no build dirs)
src=$HM_TMP/histmac
mkdir "$src"
git -C "$HM_SRC" ls-files -co --exclude-standard -z |
	(cd "$HM_SRC" && tar --null -T - -cf -) | tar -C "$src" -xf -
t0=$(date +%s)
(cd "$src" && DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=2" \
	dpkg-buildpackage -us -uc -b) >"$HM_TMP/build.log" 2>&1 ||
	{ tail -n 30 "$HM_TMP/build.log" >&2; hm_fail "dpkg-buildpackage failed"; }
deb=$(ls "$HM_TMP"/histmac_*_*.deb)
hm_ok "dpkg-buildpackage built $(basename "$deb") in $(($(date +%s) - t0)) s"
# its temporary files in ours (lintian leaves a mldbm-elf-* one behind)
TMPDIR=$HM_TMP lintian --fail-on error "$deb" >"$HM_TMP/lintian" 2>&1 ||
	{ cat "$HM_TMP/lintian" >&2; hm_fail "lintian errors"; }
hm_ok "lintian: no errors ($(grep -c '^[WI]:' "$HM_TMP/lintian" || true) warnings/info)"

hm_on_exit 'dpkg --purge histmac >/dev/null 2>&1'
dpkg -i "$deb" >"$HM_TMP/install.log" 2>&1 ||
	{ cat "$HM_TMP/install.log" >&2; hm_fail "dpkg -i failed"; }
dpkg -L histmac >"$HM_TMP/files"

# conffiles, state, nothing started, the plugin inactive
conf=$(dpkg-query -W -f='${Conffiles}' histmac)
for f in /etc/histmac/histmac.conf /etc/audit/plugins.d/histmac.conf \
	 /etc/audit/rules.d/histmac.rules.sample; do
	grep -q "^ $f " <<<"$conf" || hm_fail "$f is not a conffile"
done
[ "$(stat -c %a /var/lib/histmac)" = 750 ] || hm_fail "/var/lib/histmac missing or not 0750"
grep -qx 'active = no' /etc/audit/plugins.d/histmac.conf || hm_fail "plugin active"
grep -qx 'args = learn --plugin' /etc/audit/plugins.d/histmac.conf ||
	hm_fail "plugin does not learn"
for p in /proc/[0-9]*; do
	[ "$(readlink "$p/exe" 2>/dev/null)" != /usr/bin/histmac ] ||
		hm_fail "installing started /usr/bin/histmac (pid ${p#/proc/})"
done
hm_ok "conffiles, /var/lib/histmac, plugin inactive, nothing started"

# the installed binary: no source path, no test hooks
want=$("$HISTMAC" --version)
[ "$(cd / && /usr/bin/histmac --version)" = "$want" ] || hm_fail "version"
! grep -q 'HISTMAC_TEST_' /usr/bin/histmac || hm_fail "test hooks in the binary"
! grep -qF "$src" /usr/bin/histmac || hm_fail "build path in the binary"
for page in histmac histmac-learn histmac-enforce histmac-merge histmac-events; do
	man -w "$page" >/dev/null || hm_fail "no man page $page"
done
man -w 5 histmac.conf >/dev/null || hm_fail "no histmac.conf(5)"
words=$(bash -c '. /usr/share/bash-completion/completions/histmac
	COMP_WORDS=(histmac lea); COMP_CWORD=1; _histmac; echo "${COMPREPLY[*]}"
	COMP_WORDS=(histmac learn --pol); COMP_CWORD=2; _histmac; echo "${COMPREPLY[*]}"')
[ "$words" = $'learn\n--policy' ] || hm_fail "bash completion: $words"
hm_ok "installed: --version, man pages, completion, no test hooks or build path"

# learn with the installed binary: -p, then policy_dir of histmac.conf
(cd / && /usr/bin/histmac learn -q -p "$HM_TMP/pkg-pol" -i "$sample") 2>/dev/null
"$HISTMAC" learn -q -p "$HM_TMP/tree-pol" -i "$sample" 2>/dev/null
diff -r "$HM_TMP/tree-pol" "$HM_TMP/pkg-pol" >&2 || hm_fail "installed learn differs"
(cd / && /usr/bin/histmac learn -q -i "$sample") 2>/dev/null
diff -r "$HM_TMP/tree-pol" /var/lib/histmac/policy >&2 ||
	hm_fail "learn without -p did not write policy_dir of /etc/histmac/histmac.conf"
# the schema is found from the prefix
/usr/bin/histmac export -f xml -o "$HM_TMP/p.xml" >/dev/null
/usr/bin/histmac import -i "$HM_TMP/p.xml" -p "$HM_TMP/imported" >/dev/null 2>&1 ||
	hm_fail "installed import (schema) failed"
[ "$(/usr/bin/histmac stats -p "$HM_TMP/imported" | head -n 1)" = \
  "$(/usr/bin/histmac stats | head -n 1)" ] || hm_fail "import lost domains"
hm_ok "installed learn = build-tree learn; policy_dir from histmac.conf; schema found"

dpkg --purge histmac >"$HM_TMP/purge.log" 2>&1 ||
	{ cat "$HM_TMP/purge.log" >&2; hm_fail "purge failed"; }
left=""
while read -r f; do
	if [ -e "$f" ] && [ ! -d "$f" ]; then left="$left $f"; fi
done <"$HM_TMP/files"
for d in /etc/histmac /var/lib/histmac /usr/share/histmac /usr/share/doc/histmac; do
	[ ! -e "$d" ] || left="$left $d"
done
[ -z "$left" ] || hm_fail "left after purge:$left"
! dpkg-query -W histmac >/dev/null 2>&1 || hm_fail "dpkg still knows histmac"
hm_ok "purge leaves nothing"
