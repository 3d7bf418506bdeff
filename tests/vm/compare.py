#!/usr/bin/env python3
"""tests/vm/compare.py - TOMOYO's learned policy against histmac's, same run.

usage: compare.py SHARE [--histmac BIN]
  SHARE/tomoyo/domain_policy      what TOMOYO learned (read back from the kernel)
  SHARE/histmac/domain_policy.conf what histmac learned from the run's audit log

The comparison parses both files itself (the oracle does not lean on the
reader it checks), splits merged permissions ("file read/write P") into one
entry each, and compares per domain and per ACL kind:
  - a domain only in TOMOYO, or only in histmac;
  - an entry only in TOMOYO: no histmac entry in the same domain with the
    same kind and arguments (a histmac pattern counts when `histmac match`
    says it matches) whose conditions are a subset of TOMOYO's (fewer
    conditions allow more);
  - an entry only in histmac; a "file write" beside a "file append" of
    the same arguments is histmac's meaning of an O_APPEND open, counted
    apart.
Kinds histmac does not learn (the oracle profile switches them off in
TOMOYO too) are left out: file getattr, file ioctl, misc env.
Each difference is put under the workload whose domain it is in (the
domain's name holds /run/hm/wl/NAME), or under "harness".
Exit 0 when TOMOYO has no domain and no entry histmac lacks, else 1.
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

NOT_LEARNED = {"file getattr", "file ioctl", "misc env"}
# Words after the permission that are arguments, not conditions.
NARGS = {
    "execute": 1, "read": 1, "write": 1, "append": 1, "unlink": 1,
    "getattr": 1, "rmdir": 1, "truncate": 1, "symlink": 1, "chroot": 1,
    "unmount": 1, "create": 2, "mkdir": 2, "mkfifo": 2, "mksock": 2,
    "ioctl": 2, "chmod": 2, "chown": 2, "chgrp": 2, "mkblock": 4,
    "mkchar": 4, "link": 2, "rename": 2, "pivot_root": 2, "mount": 4,
}
# Harness steps TOMOYO cannot see (before it is active, or after the
# trigger switched it off): reported apart, never a finding.
HARNESS_AFTER = "/run/hm/collect"
TRIGGER_DOMAIN = "<kernel> /run/hm/init"


def entries(line):
    """Split one ACL line into (kind, args, conds) tuples, one per perm."""
    w = line.split()
    if w[0] == "file":
        perms, rest = w[1].split("/"), w[2:]
        out = []
        for p in perms:
            n = NARGS.get(p, 1)
            out.append(("file " + p, tuple(rest[:n]), frozenset(rest[n:])))
        return out
    if w[0] == "network":
        fam, typ, perms, rest = w[1], w[2], w[3].split("/"), w[4:]
        n = 2 if fam == "inet" else 1
        return [("network %s %s %s" % (fam, typ, p), tuple(rest[:n]),
                 frozenset(rest[n:])) for p in perms]
    if w[0] == "misc":
        return [("misc " + w[1], tuple(w[2:3]), frozenset(w[3:]))]
    if w[0] == "task":
        return [("task " + w[1], tuple(w[2:3]), frozenset(w[3:]))]
    return [(w[0], tuple(w[1:]), frozenset())]


def read_policy(path):
    doms = {}
    cur = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("<"):
                cur = line
                doms.setdefault(cur, set())
                continue
            if cur is None or line.split()[0] in (
                    "use_profile", "use_group", "quota_exceeded",
                    "transition_failed"):
                continue
            for e in entries(line):
                if e[0] not in NOT_LEARNED:
                    doms[cur].add(e)
    return doms


def workload_of(dom):
    m = re.search(r" /run/hm/wl/([^ ]+)", dom)
    return m.group(1) if m else "harness"


def is_pattern(args):
    return any("\\" in a and re.search(r"\\[*@?$+xXaA{}-]", a) for a in args)


class Matcher:
    """Wildcard matching with the kernel's semantics, via histmac match."""

    def __init__(self, binary):
        self.binary = binary
        self.cache = {}

    def many(self, pairs):
        todo = [p for p in pairs if p not in self.cache]
        if todo and self.binary:
            inp = "".join("%s\t%s\n" % p for p in todo)
            r = subprocess.run([self.binary, "match", "--batch"], input=inp,
                               capture_output=True, text=True)
            for p, ans in zip(todo, r.stdout.split("\n")):
                self.cache[p] = ans.strip() == "1"
        for p in todo:
            self.cache.setdefault(p, False)

    def args_match(self, pat, lit):
        return len(pat) == len(lit) and all(
            a == b or self.cache.get((a, b), False) for a, b in zip(pat, lit))


def covered(t, hset, matcher):
    kind, args, conds = t
    for h in hset:
        if h[0] != kind or not h[2] <= conds:
            continue
        if h[1] == args or matcher.args_match(h[1], args):
            return True
    return False


def main():
    share = sys.argv[1]
    binary = None
    if "--histmac" in sys.argv:
        binary = sys.argv[sys.argv.index("--histmac") + 1]
    tom = read_policy(os.path.join(share, "tomoyo", "domain_policy"))
    hm = read_policy(os.path.join(share, "histmac", "domain_policy.conf"))
    matcher = Matcher(binary)
    # ask histmac match only about histmac patterns against TOMOYO words
    pairs = set()
    for d, ts in tom.items():
        for h in hm.get(d, ()):
            if is_pattern(h[1]):
                for t in ts:
                    if t[0] == h[0] and len(t[1]) == len(h[1]):
                        pairs.update(zip(h[1], t[1]))
    matcher.many(sorted(p for p in pairs if p[0] != p[1]))

    report = defaultdict(list)   # workload -> lines
    counts = defaultdict(int)
    bykind = defaultdict(int)

    def only(lines, side, e):
        """Count and list an entry only in TOMOYO (-) or only in histmac (+)."""
        lines.append("  %s %s" % (side, fmt(e)))
        counts["entries only in %s" % ("TOMOYO" if side == "-" else "histmac")] += 1
        bykind[side + e[0]] += 1

    for d in sorted(set(tom) | set(hm)):
        wl = workload_of(d)
        if HARNESS_AFTER in d:
            continue
        if not d.startswith(TRIGGER_DOMAIN) and d != "<kernel>":
            # only histmac sees what ran before TOMOYO was active
            report["harness (before TOMOYO activation, not counted)"].append(
                "domain only in %s: %s" % ("histmac" if d in hm else "TOMOYO", d))
            continue
        if d not in hm or d not in tom:
            side, who, ents = ("-", "TOMOYO", tom[d]) if d not in hm else ("+", "histmac", hm[d])
            report[wl].append("domain only in %s: %s%s" % (who, d, counterpart(
                d, hm if d not in hm else tom)))
            counts["domains only in " + who] += 1
            for e in sorted(ents):
                only(report[wl], side, e)
            continue
        lines = []
        for t in sorted(tom[d]):
            if not covered(t, hm[d], matcher):
                only(lines, "-", t)
        for h in sorted(hm[d]):
            if h[0] == "file execute" and h[1] == (HARNESS_AFTER,):
                continue
            if h[0] == "file write" and ("file append",) + h[1:] in hm[d]:
                # histmac's enforcer asks write of an O_APPEND open, and
                # learns it beside the append (docs/ENFORCE.md)
                counts["writes beside an append (not counted)"] += 1
                continue
            if not any(h[0] == t[0] and (h[1] == t[1] or matcher.args_match(h[1], t[1]))
                       for t in tom[d]):
                only(lines, "+", h)
        if lines:
            report[wl].append("domain " + d)
            report[wl].extend(lines)

    print("# TOMOYO (-) against histmac (+), learned from the same run")
    print("# kinds not compared (histmac does not learn them): "
          + ", ".join(sorted(NOT_LEARNED)))
    for k in ("domains only in TOMOYO", "entries only in TOMOYO",
              "domains only in histmac", "entries only in histmac",
              "writes beside an append (not counted)"):
        print("%s: %d" % (k, counts[k]))
    for k in sorted(bykind):
        print("  %s %s: %d" % ("only in TOMOYO" if k[0] == "-" else
                               "only in histmac", k[1:], bykind[k]))
    for wl in sorted(report):
        print("\n## workload %s" % wl)
        print("\n".join(report[wl]))
    return 1 if counts["domains only in TOMOYO"] or counts["entries only in TOMOYO"] else 0


def counterpart(d, other):
    """The other side's domain of the same depth whose programs have the
    same base names (/bin/cat for /usr/bin/cat): a hint at a naming
    difference, printed after a domain only in one side."""
    base = [w.rsplit("/", 1)[-1] for w in d.split(" ")]
    for o in sorted(other):
        if o != d and [w.rsplit("/", 1)[-1] for w in o.split(" ")] == base:
            return "\n    (other side: %s)" % o
    return ""


def fmt(e):
    return " ".join((e[0],) + e[1] + tuple(sorted(e[2])))


if __name__ == "__main__":
    sys.exit(main())
