#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The monitoring mixin, end to end, no mock: rdmad on four hosts probes
# the three others (the mesh); a real Prometheus (Debian's package) on
# the fabric's monitoring host (fab_mon: on the wire, beside the hosts)
# scrapes all four rdmads every 2 s, over TLS with basic auth as
# an operator sets it up (fab_tls_setup: a CA, a certificate a host, a
# bcrypt password in each rdmad's web config), with the mixin's recording
# rules and alerts loaded (rendered by monitoring/build from the same
# sources as monitoring/generated, with windows and `for` durations
# shortened so that the test fits in minutes: the override is below).
#   1. Healthy: every recording rule has series, no alert fires for a
#      whole window (none is pending but a missed scrape's RdmadDown),
#      and every query of every panel of the Grafana dashboards returns
#      data.
#   2. Host 4's cable is pulled: exactly RdmadHostUnreachable{peer=host 4}
#      and RdmadDown{instance=host 4} fire (queried through Prometheus'
#      HTTP API), nothing else; the pairs 1..3 -> 4 raise no pair alert.
#   3. The cable is back: both resolve, and nothing fires for a window
#      and a `for` afterwards (the outage's failed rounds still in the
#      rate window must not raise a pair-loss alert).
# What fired when is logged (the closing note's figures).
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 4
command -v prometheus >/dev/null ||
	fab_fail "prometheus is missing: apt-get install prometheus (tests/testbed/install-deps)"

# Short windows for the test, everything else the mixin's defaults: the
# same override as the mixin's promtool tests of this scenario
# (monitoring/tests/short/config.jsonnet).  The TCG guests are ~10-50x
# slower than real hosts: no latency or bandwidth alert there.

WINDOW=$(fab_mixin_secs windowShort) || exit 1
FOR=$(fab_mixin_secs forLong) || exit 1
# rendered beside the mesh's start (the host's CPU, ~15 s under CI's load)
fab_mixin_build "$T/mixin" &
mixin_job=$!

P=() ; INST=()
for i in 1 2 3 4; do P[i]=$(fab_peer "$i"); INST[i]="$(fab_addr "$i"):9470"; done
fab_tls_setup 4
fab_mesh_start 4 7471 "http.web_config = $FAB_TLS_WEB" "mesh.interval = 1s" "mesh.sizes = 64 4k" \
	"mesh.connect_timeout = 2s" "mesh.backoff_min = 500ms" "mesh.backoff_max = 3s" \
	"mesh.bandwidth_every = 5s" "mesh.bandwidth_duration = 50ms" \
	"mesh.bandwidth_share = 5%" "mesh.round_timeout = 5s" \
	"http.listen = 0.0.0.0:9470" "http.allow = 127.0.0.0/8" "http.allow = 10.98.0.0/24"
sizes=2
fab_mesh_wait_all 4 60
# (round_timeout 5 s, not 900 ms: a guest starved by its neighbours once
# failed a healthy round in 900 ms, and RdmadPairUnreachable went pending
# in the healthy phase; a pulled cable fails rounds at once all the same.)
fab_log "mesh up: 12 pairs verified"

# Prometheus on the monitoring host, scraping the rdmads across the wire.
wait "$mixin_job" || exit 1
fab_prom_mixin_start "$T/mixin" "${INST[1]}" "${INST[2]}" "${INST[3]}" "${INST[4]}"
t_prom=$(fab_now)
fab_log "Prometheus up on the monitoring host, scraping ${INST[*]}"

# prom_query EXPR: the API's JSON answer to an instant query.
prom_query() { fab_prom_query 127.0.0.1:9090 "$1"; }
# prom_count EXPR: how many series the instant query returns.
prom_count() { fab_prom_count 127.0.0.1:9090 "$1"; }
# prom_counts FILE: for each line "LABEL<TAB>EXPR" of FILE, "N<TAB>LABEL"
# with N the number of series EXPR returns ("error" if it fails): one
# python3 on the monitoring host for them all.
prom_counts() {
	fab_mon -t 180 python3 - "$1" <<'PYEOF'
import json, sys, urllib.parse, urllib.request
for line in open(sys.argv[1]).read().splitlines():
    if not line:
        continue
    label, expr = line.split('\t', 1)
    url = 'http://127.0.0.1:9090/api/v1/query?' + urllib.parse.urlencode({'query': expr})
    try:
        d = json.load(urllib.request.urlopen(url, timeout=20))
        n = len(d['data']['result']) if d['status'] == 'success' else 'error'
    except Exception:
        n = 'error'
    print('%s\t%s' % (n, label))
PYEOF
}
# alerts STATE: the alerts in STATE as sorted "NAME key" lines.
alerts() { fab_prom_alerts 127.0.0.1:9090 "$1"; }

# Every target scraped.
for ((k = 0; k < 60; k++)); do
	[ "$(prom_count 'up{job="rdmad"} == 1')" = 4 ] && break
	sleep 1
done
[ "$(prom_count 'up{job="rdmad"} == 1')" = 4 ] || fab_fail "Prometheus does not scrape all 4 rdmads: $(prom_query 'up')"
# ... over TLS with the password: each target's scrape URL is https, and
# no rdmad refused a request for want of it (nor a plaintext one).  A
# handshake cut short (a scrape's 2 s timeout on a slow guest) is no
# misconfiguration: counted as tls-handshake, logged, not refused here.
fab_prom_get 127.0.0.1:9090 /api/v1/targets >"$T/targets.json" ||
	fab_fail "cannot read Prometheus' targets"
urls=$(python3 -c 'import json, sys
print(" ".join(sorted(t["scrapeUrl"] for t in json.load(open(sys.argv[1]))["data"]["activeTargets"])))' "$T/targets.json") ||
	fab_fail "Prometheus' targets are not as expected: $(head -c 500 "$T/targets.json")"
[ "$(echo "$urls" | grep -o 'https://' | wc -l)" = 4 ] || fab_fail "not 4 https scrape URLs: $urls"
# the four scraped at once (fab_at_once), then read here
fab_at_once "1 2 3 4" fab_scrape_to tls
for i in 1 2 3 4; do
	refused=$(grep -E '^rdmad_http_requests_refused_total\{.*reason="(auth-|tls-plaintext|tls-garbage|tls-client-cert)' \
		"$T/tls-$i.prom" | grep -v ' 0$' || true)
	[ -z "$refused" ] || fab_fail "host $i refused requests: $refused"
	hs[i]=$(prom_sum "$T/tls-$i.prom" rdmad_http_requests_refused_total 'reason="tls-handshake"')
done
fab_log "handshakes cut short (tls-handshake), hosts 1-4: ${hs[1]:-0} ${hs[2]:-0} ${hs[3]:-0} ${hs[4]:-0}"
fab_log "Prometheus scrapes the four over TLS with basic auth: $urls"

# 1. Healthy, for a window and the longest `for`: nothing firing, and
# nothing pending but RdmadDown: one scrape that missed its timeout (a TCG
# guest starved by its neighbours on a 2-core CI host; seen there) sets it
# pending, which is the rule doing its job; its `for` is what keeps such a
# miss from paging, and a firing RdmadDown still fails here.  The window
# counts from Prometheus' start: the targets and TLS checks above ran in
# it (15-21 s), and what fired while they ran is asked of Prometheus
# below (every evaluation since its start, not the moments polled).
end=$((${t_prom%.*} + WINDOW + FOR + 6))
missed=""
while [ "$(date +%s)" -lt "$end" ]; do
	m=$(alerts pending)
	a=$(alerts firing; grep -v '^RdmadDown ' <<<"$m")
	[ -z "$a" ] || fab_fail "healthy fabric, yet alerts: $a"
	[ -z "$m" ] || missed+="${missed:+, }${m//$'\n'/, } at $(fab_since "$t_prom") s"
	sleep 3
done
fired=$(prom_count "max_over_time(ALERTS{alertstate=\"firing\"}[$(($(date +%s) - ${t_prom%.*} + 2))s])")
[ "$fired" = 0 ] || fab_fail "healthy fabric, yet $fired alerts fired since Prometheus started: $(prom_query "max_over_time(ALERTS{alertstate=\"firing\"}[$(($(date +%s) - ${t_prom%.*} + 2))s])")"
fab_log "healthy: no alert firing, none pending but a missed scrape's RdmadDown, for $((WINDOW + FOR + 6)) s from Prometheus' start"
[ -z "$missed" ] || fab_log "missed scrapes (RdmadDown pending, not firing): $missed"

# Every recording rule has series: most of them now; those that select a
# fault (a pair down for a while, ...) are checked again during the cut.
# The verdicts' groups need an inventory with topology (places); this mesh
# is a plain targets file, so they have none (monitoring/tests/verdicts.yaml
# and tests/bench/verdict-sim test them).  The NIC-errors verdict needs a
# NIC counting errors while its pairs lose rounds, which neither phase
# makes (monitoring/tests/nic-errors.yaml tests it).
records=$(python3 -c 'import sys, yaml
skip = {"rdmad-place.rules", "rdmad-verdict.rules", "rdmad-explained.rules", "rdmad-nic-verdict.rules"}
for g in yaml.safe_load(open(sys.argv[1]))["groups"]:
    if g["name"] in skip:
        continue
    for r in g["rules"]:
        if "record" in r: print(r["record"])' "$T/mixin/rdmad-rules.yaml" | sort -u)
[ -n "$records" ] || fab_fail "no recording rule in rdmad-rules.yaml"
# records_missing: the recording rules that have no series now.
records_missing() {
	local r
	for r in $records; do printf '%s\t%s\n' "$r" "$r"; done >"$T/records.txt"
	prom_counts "$T/records.txt" >"$T/records.out" || fab_fail "cannot query the recording rules"
	awk -F'\t' '$1 == "error" || $1 == 0 { print $2 }' "$T/records.out"
}
healthy_missing=$(records_missing)
fab_log "recording rules: $(echo "$records" | wc -l), with series while healthy: $(($(echo "$records" | wc -l) - $(echo "$healthy_missing" | sed '/^$/d' | wc -l)))${healthy_missing:+ (none yet: ${healthy_missing//$'\n'/ })}"

# Every dashboard panel's query returns data (Grafana's variables as a
# dashboard with "All" selected would send them).
python3 - "$T/mixin/dashboards" >"$T/queries.txt" <<'EOF' || fab_fail "cannot read the dashboards"
import json, os, sys
d = sys.argv[1]
for f in sorted(os.listdir(d)):
    if not f.endswith(".json"):
        continue
    dash = json.load(open(os.path.join(d, f)))
    panels = []
    for p in dash.get("panels", []):
        panels.append(p)
        panels.extend(p.get("panels", []))
    for p in panels:
        for t in p.get("targets", []):
            e = t.get("expr")
            if not e:
                continue
            for k, v in (("$__rate_interval", "30s"), ("$__interval", "10s"),
                         ("$__range", "5m")):
                e = e.replace(k, v)
            for v in dash.get("templating", {}).get("list", []):
                for form in ("${%s}" % v["name"], "$" + v["name"]):
                    e = e.replace(form, ".*")
            print("%s\t%s\t%s" % (f, p.get("title", "?"), " ".join(e.split())))
EOF
awk -F'\t' '{ print $1 ": " $2 "\t" $3 }' "$T/queries.txt" >"$T/queries.in"
prom_counts "$T/queries.in" >"$T/queries.out" || fab_fail "cannot run the dashboards' queries"
bad=$(awk -F'\t' '$1 == "error" || $1 == 0 { print $2 }' "$T/queries.out")
[ -z "$bad" ] || fab_fail "dashboard panels whose query returns no data: $bad (queries in $T/queries.txt)"
nq=$(wc -l <"$T/queries.out")
[ "$nq" -gt 0 ] || fab_fail "the dashboards have no query"
fab_log "dashboards: $nq panel queries, each returned data"

# 2. Host 4's cable is pulled.
want="RdmadDown ${INST[4]}
RdmadHostUnreachable ${P[4]}"
fab_link 4 down
t_cut=$(fab_now)
for ((k = 0; k < 60; k++)); do
	got=$(alerts firing)
	[ "$got" = "$want" ] && break
	case $got in
	*RdmadDown*) [ -z "${t_down:-}" ] && t_down=$(fab_since "$t_cut") ;;
	esac
	# Anything firing that is not expected is a failure at once.
	extra=$(comm -13 <(echo "$want") <(echo "$got") | sed '/^$/d')
	[ -z "$extra" ] || fab_fail "unexpected alert firing after the cut: $extra"
	sleep 2
done
[ "$got" = "$want" ] || fab_fail "after $(fab_since "$t_cut") s firing: '${got//$'\n'/, }', want '${want//$'\n'/, }'"
fab_log "cable of host 4 pulled: firing after $(fab_since "$t_cut") s: ${got//$'\n'/, } (RdmadDown first seen firing after ${t_down:-?} s)"
# They stay exactly these while the cable is out.
for ((k = 0; k < 5; k++)); do
	sleep 3
	got=$(alerts firing)
	[ "$got" = "$want" ] || fab_fail "while host 4 is cut, firing: '${got//$'\n'/, }'"
done
if [ -n "$healthy_missing" ]; then
	records=$healthy_missing
	still=$(records_missing)
	[ -z "$still" ] || fab_fail "recording rules with no series, healthy or cut: ${still//$'\n'/ }"
	fab_log "while cut, these have series too: ${healthy_missing//$'\n'/ }"
fi
pend=$(alerts pending)
[ -z "$pend" ] || fab_log "pending while cut (not firing): ${pend//$'\n'/, }"

# 3. The cable is back: both resolve, nothing else fires afterwards.
fab_link 4 up
t_heal=$(fab_now)
for ((k = 0; k < 60; k++)); do
	got=$(alerts firing)
	[ -z "$got" ] && break
	extra=$(comm -13 <(echo "$want") <(echo "$got") | sed '/^$/d')
	[ -z "$extra" ] || fab_fail "unexpected alert firing after the heal: $extra"
	sleep 2
done
[ -z "$got" ] || fab_fail "$(fab_since "$t_heal") s after the heal still firing: ${got//$'\n'/, }"
fab_log "cable back: all resolved after $(fab_since "$t_heal") s"
# a window and a `for` from the heal: the outage's failed rounds leave the
# rate windows a window after it (the loop above failed on anything else
# firing while the two resolved)
end=$((${t_heal%.*} + WINDOW + FOR + 6))
while [ "$(date +%s)" -lt "$end" ]; do
	got=$(alerts firing)
	[ -z "$got" ] || fab_fail "after the heal, firing: ${got//$'\n'/, }"
	sleep 3
done
fab_log "nothing fired in the $((WINDOW + FOR + 6)) s after the heal (the outage still in the rate windows)"
fab_log "Prometheus ran $(fab_since "$t_prom") s; its log: $(tail -3 "$(fab_prom_dir prom)/prom.log")"
fab_mon_clean
