#!/bin/bash
# t_enforce_metrics.sh - the enforcer's metrics file (--metrics), read by
# the Prometheus client library's own parser (python3-prometheus-client).
# The daemon runs enforcing with the smallest decision cache (64 slots)
# while the helper reads 400 files three times (1,200 cache inserts,
# nearly all evicting) and 66 programs of their own domains each try to
# read a file they may not, one of them with a space, a quote, a
# backslash and a newline in its name.  Then:
#   - the file exists from the start and SIGUSR1 rewrites it at once;
#   - the parser accepts it; every family has HELP and TYPE;
#   - the latency histogram's buckets are cumulative, +Inf is its count,
#     and the count is every event read (the decisions the counters
#     report) and every answer written;
#   - denials by domain: one each for 64 domains, named as the log names
#     them (escaped label values parse back to the same text), the other
#     two in "other", their sum the denied counter;
#   - the too small cache was warned about exactly once, naming
#     --cache-size;
#   - histmac.conf's metrics_file and metrics_interval write it
#     periodically (no signal).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/enforce_lib.sh"

# Debian's python3, which python3-prometheus-client is installed for
PY=/usr/bin/python3
hm_need "$PY"
"$PY" -c 'import prometheus_client.parser' 2>/dev/null ||
	hm_fail "python3-prometheus-client is missing (scripts/deps.sh test)"
hm_enf_setup
M=$HM_TMP/metrics.prom

mkdir -p "$T/f"
files=()
for i in $(seq 400); do
	echo "$i" >"$T/f/$i"
	files+=("$T/f/$i")
done
hm_enf_policy_from <<EOP
<kernel>
use_profile 3

<kernel> $T/helper
use_profile 3
file read $T/f/\*
EOP
# 66 programs, each its own domain; one hostile name
ODD="$T/we ird\"q\\b
x"
progs=("$ODD")
cp "$T/helper" "$ODD"
for i in $(seq 65); do
	cp "$T/helper" "$T/d$i"
	progs+=("$T/d$i")
done

hm_enf_start --mode enforcing --no-audit --cache-size 1 --metrics "$M" \
	--metrics-interval 600
[ -s "$M" ] || hm_enf_fail "no metrics file at start"
for round in 1 2 3; do
	hm_enf_ok "$T/helper" read "${files[@]}"
done
for p in "${progs[@]}"; do
	_hm_enf_run "$p" read "$T/a"
	case "$HM_ENF_OUT" in
	*"Operation not permitted"*) ;;
	*) hm_enf_fail "$p read $T/a was not denied: $HM_ENF_OUT" ;;
	esac
done
# SIGUSR1: written at once (the next periodic write is 600 s away)
kill -USR1 "$DPID"
hm_wait_for "grep -q 'denials_total{domain=\"other\"} 2' '$M'" 100 ||
	hm_enf_fail "SIGUSR1 did not write the metrics: $(grep denials "$M")"
hm_enf_stop
hm_ok "metrics written at start, on SIGUSR1 and at stop"

"$PY" - "$M" "$DLOG" "$(hm_enf_counter "denied: enforcing violation")" <<'EOF'
import re, sys
from prometheus_client.parser import text_string_to_metric_families

path, log, denied = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(path).read()
fams = {f.name: f for f in text_string_to_metric_families(text)}

def fail(msg):
    sys.exit("FAIL: t_enforce_metrics: " + msg)

def one(fam, **labels):
    for s in fams[fam].samples:
        if all(s.labels.get(k) == v for k, v in labels.items()):
            return s.value
    fail("no sample %s %s" % (fam, labels))

for line in text.splitlines():
    if not line.startswith("#"):
        name = re.match(r"[a-z_]+", line).group(0)
        if not name.startswith("histmac_enforcer_"):
            fail("sample outside histmac_enforcer_*: " + line)
helps = set(re.findall(r"^# HELP (\S+)", text, re.M))
types = set(re.findall(r"^# TYPE (\S+)", text, re.M))
if helps != types or len(helps) != len(fams):
    fail("families without HELP or TYPE: %s" % (helps ^ types))

# the histogram
h = fams["histmac_enforcer_decision_seconds"]
if h.type != "histogram":
    fail("decision_seconds is a %s" % h.type)
buckets = [(s.labels["le"], s.value) for s in h.samples
           if s.name.endswith("_bucket")]
les = [b[0] for b in buckets]
want = ["5e-05", "0.0001", "0.0005", "0.001", "0.01", "0.025", "0.05",
        "0.1", "0.25", "+Inf"]
if [str(float(le)) if le != "+Inf" else le for le in les] != \
   [str(float(le)) if le != "+Inf" else le for le in want]:
    fail("buckets %s" % les)
vals = [b[1] for b in buckets]
if any(a > b for a, b in zip(vals, vals[1:])):
    fail("buckets not cumulative: %s" % vals)
count = [s.value for s in h.samples if s.name.endswith("_count")][0]
if vals[-1] != count:
    fail("+Inf %d, count %d" % (vals[-1], count))
events = sum(s.value for s in fams["histmac_enforcer_events"].samples)
full = one("histmac_enforcer_answers", by="table_full")
if count != events - full or count < 1200:
    fail("latency count %d, events %d (table full %d)" % (count, events, full))
answers = one("histmac_enforcer_answers", by="loop") + \
    one("histmac_enforcer_answers", by="watchdog_late")
if answers != count:
    fail("answers %d, latency count %d" % (answers, count))

# decisions by result: the denials and the cache's allows
if one("histmac_enforcer_decisions", result="deny", reason="policy") != denied:
    fail("decisions{deny,policy} is not the denied counter %d" % denied)

# denials by domain, as the log names the domains
logged = {}
for m in re.finditer(r'\bdeny pid=\d+ domain="(.*)" file read ', open(log).read()):
    logged[m.group(1)] = logged.get(m.group(1), 0) + 1
by = {s.labels["domain"]: s.value
      for s in fams["histmac_enforcer_denials"].samples}
other = by.pop("other")
if len(by) != 64 or other != 2 or sum(by.values()) + other != denied:
    fail("%d domains, other %d, denied %d: %s" % (len(by), other, denied, by))
for d, n in by.items():
    if logged.get(d) != n:
        fail("domain %r: %d denials, logged %s" % (d, n, logged.get(d)))
if not any('"' in d and "\\" in d for d in by):
    fail("the hostile name is not among the domains: %s" % sorted(by)[:3])

# the cache
if one("histmac_enforcer_cache_slots") != 64:
    fail("cache slots %d" % one("histmac_enforcer_cache_slots"))
ev, ins = one("histmac_enforcer_cache_evictions"), one("histmac_enforcer_cache_inserts")
if ins < 1000 or ev * 4 < ins:
    fail("cache: %d inserts, %d evictions" % (ins, ev))
print("ok: the parser accepts the metrics; %d decisions in the histogram, "
      "%d denials by domain" % (count, denied))
EOF

n=$(grep -c 'warning: the decision cache is too small.*--cache-size' "$DLOG" || true)
[ "$n" = 1 ] || hm_enf_fail "the small cache was warned about $n times"
hm_ok "the too small cache was warned about once"

# --- histmac.conf: periodic writes ------------------------------------------
rm -f "$M"
printf 'metrics_file = %s\nmetrics_interval = 1\n' "$M" >"$HM_TMP/histmac.conf"
printf '#!/bin/sh\nexec "%s" --config "%s" "$@"\n' "$HISTMAC" \
	"$HM_TMP/histmac.conf" >"$HM_TMP/histmac-conf"
chmod 755 "$HM_TMP/histmac-conf"
HISTMAC=$HM_TMP/histmac-conf hm_enf_start --mode enforcing --no-audit
rm -f "$M"	# the write at start
hm_enf_ok "$T/helper" read "$T/f/1"
hm_wait_for "grep -q 'decisions_total{result=\"allow\",reason=\"policy\"} [1-9]' '$M'" 50 ||
	hm_enf_fail "no periodic write from histmac.conf: $(cat "$M" 2>&1 | head -5)"
hm_enf_stop
hm_ok "histmac.conf metrics_file/metrics_interval write it every second"
