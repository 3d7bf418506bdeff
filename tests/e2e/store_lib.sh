# shellcheck shell=bash
# tests/e2e/store_lib.sh - what the policy store's tests share (two
# writers of one directory).  Source it after enforce_lib.sh.
#
#   hm_store_setup DOMAIN...  hm_enf_setup, and a policy in $POL where
#                             <kernel> and each "<kernel> $T/DOMAIN" learn
#                             and may read $T/a; sets dp (its domain policy)
#   acl DOMAIN                the domain's lines as the files hold them now
#   has DOMAIN LINE WHEN      fail unless DOMAIN has LINE
#   lacks DOMAIN LINE WHEN    fail if DOMAIN has LINE
#   saves                     how many saves the daemon's log says so far

hm_store_setup() {
	local d
	hm_enf_setup
	dp=$POL/domain_policy.conf
	{
		printf '<kernel>\nuse_profile 1\n'
		for d in "$@"; do
			printf '\n<kernel> %s/%s\nuse_profile 1\nfile read %s/a\n' \
				"$T" "$d" "$T"
		done
	} | hm_enf_policy_from
}

acl() { awk -v d="$1" '$0 == d { on = 1; next } /^<kernel>/ { on = 0 } on' "$dp"; }
has() {
	acl "$1" | grep -qxF "$2" ||
		{ cat "$dp" >&2; hm_enf_fail "$3: '$1' lacks '$2'"; }
}
lacks() {
	! acl "$1" | grep -qxF "$2" ||
		{ cat "$dp" >&2; hm_enf_fail "$3: '$1' has '$2' again"; }
}
saves() { grep -c "policy saved to $POL" "$DLOG" || true; }
