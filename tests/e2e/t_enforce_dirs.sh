#!/bin/bash
# t_enforce_dirs.sh - issue 21 item 1: a directory opened for reading is
# judged as TOMOYO checks it and learn learns it, "file read DIR/": the
# domain that may read $T/d1/ opens it, $T/d2/ is denied with EPERM and
# logged with the trailing '/'.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

hm_enf_setup
mkdir -m 0755 "$T/d1" "$T/d2"
H="<kernel> $T/helper"
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

$H
use_profile 3
file read $T/d1/
EOP

hm_enf_start --mode enforcing
hm_enf_nobody open rdonly "$T/d1"
case "$HM_ENF_OUT" in
*"open rdonly $T/d1: ok"*) ;;
*) hm_enf_fail "the learned directory: $HM_ENF_RC $HM_ENF_OUT" ;;
esac
hm_enf_nobody open rdonly "$T/d2"
case "$HM_ENF_OUT" in
*"open rdonly $T/d2: Operation not permitted"*) ;;
*) hm_enf_fail "a directory the domain may not read: $HM_ENF_RC $HM_ENF_OUT" ;;
esac
hm_enf_stop
hm_enf_log_has "deny pid=[0-9]+ domain=\"$H\" file read $T/d2/"
hm_ok "a directory opened for reading is judged as file read DIR/"
