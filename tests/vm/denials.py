#!/usr/bin/env python3
"""tests/vm/denials.py - what TOMOYO denied with histmac's policy loaded.

usage: denials.py SHARE PHASE
  SHARE/tomoyo/audit   TOMOYO's audit records (NUL-separated, 3 lines each:
                       header with granted=no, domain, ACL line)
  SHARE/status         "WORKLOAD RC T0 T1" lines (T: seconds since boot),
                       "misbehave RC" (bit 1: /etc/shadow read, 2: od ran)

Prints the denials per workload (the domain names /run/hm/wl/NAME) and
the harness's own (<kernel>, where auditd lives, runs permissive: it was
started before TOMOYO and is not what histmac learns).  The misbehaviours
(script_chain run with HM_MISBEHAVE=1 in the enforce phase) must be denied.  Exit 0 when no
workload domain was denied anything, every workload exited 0, and (in
the enforce phase) every misbehaviour was denied; else 1.
"""
import re
import sys
from collections import defaultdict


MISBEHAVIOURS = ("file read /etc/shadow", "file execute /usr/bin/od")


def main():
    share, phase = sys.argv[1], sys.argv[2]
    with open(share + "/tomoyo/audit", "rb") as f:
        raw = f.read().decode("utf-8", "replace")
    per = defaultdict(list)
    for rec in raw.split("\0"):
        lines = [l for l in rec.split("\n") if l.strip()]
        if len(lines) < 3 or "granted=no" not in lines[0]:
            continue
        dom, acl = lines[1], lines[2]
        if acl.startswith("use_profile "):
            continue    # a domain's creation, logged, not a denial
        m = re.search(r" /run/hm/wl/([^ ]+)", dom)
        if m:
            wl = m.group(1)
        elif dom.startswith("<kernel> /run/hm/init"):
            wl = "init"         # the trigger's domain: histmac learned it too
        else:
            wl = "harness"      # <kernel>: auditd, started before TOMOYO
        if phase == "enforce" and wl == "script_chain" and acl in MISBEHAVIOURS:
            wl = "misbehaviour (expected)"
        per[wl].append((dom, acl))
    status = {}
    misbehave = {}
    with open(share + "/status") as f:
        for line in f:
            w = line.split()
            if len(w) == 2 and w[0] == "misbehave":
                rc = int(w[1])
                misbehave["read-shadow"] = "allowed" if rc & 1 else "denied"
                misbehave["exec-unlearned"] = "allowed" if rc & 2 else "denied"
            elif len(w) in (2, 4) and w[0] != "active":
                status[w[0]] = w[1]
    bad = False
    print("# %s: TOMOYO denials with histmac's policy loaded" % phase)
    for wl in sorted(set(per) | set(status)):
        if wl in ("learn", "patternize"):
            continue
        n = len(per.get(wl, []))
        rc = status.get(wl, "-")
        counted = wl not in ("harness", "misbehaviour (expected)")
        print("%s: %d denials, exit %s%s" % (wl, n, rc, "" if counted else " (not counted)"))
        if counted and (n or (rc not in ("0", "-"))):
            bad = True
    for wl in sorted(per):
        for dom, acl in per[wl]:
            print("  %s | %s | %s" % (wl, dom, acl))
    if phase == "enforce":
        for k in sorted(misbehave):
            print("misbehave %s: %s" % (k, misbehave[k]))
            if misbehave[k] != "denied":
                bad = True
        if not misbehave:
            print("misbehave: did not run")
            bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
