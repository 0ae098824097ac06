#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# GET /probe (blackbox-style probes, issues 13 and 33) of rdmad-fake's
# own listener.  rdmad with [http] and modules, in a mount namespace with
# its own /etc/hosts (rdmad-srv.test: the server address) and an
# /etc/resolv.conf without a nameserver: /probe of itself ->
# probe_success 1 (default and module=small, the bytes and operations as
# the module says; by name too, with its lookup time); a dead port -> 0,
# class refused or unreachable; a name nobody knows -> 200, 0, class
# unresolved; an unknown module, a malformed target, debug=maybe, a bad
# scrape timeout header -> 400; 17 at once -> 17 answered 200, 16
# succeeded and 1 class busy; the scrape timeout header bounds a long
# probe (3 s: answered after 2.5 s by curl's clock, class timeout) and,
# at its boundaries, the probe's timeout (5.499 s -> 4999 ms, 5.5 s and
# 60 s -> the module's 5000 ms, 1 s -> 500 ms); debug=true -> the steps,
# the metrics, the module; a client that goes away mid-probe (aborted);
# no connection left open after each.  HEAD /probe runs no probe (405).
# A real Prometheus scraping /probe as docs/monitoring.md says (a scrape
# timeout of 2 s below module huge's 60 s; a name nobody knows) stores
# probe_success 0 with up 1 for both targets and fires the documented
# alert probe_success{job="rdma_probe"} == 0 (for 6 s here, 2 m in the
# docs).  The fake moves bytes in microseconds: modules long and huge
# are counted for it (the rdma guest's t-69 keeps the wrong bytes of
# rdmad-hostile, the stopped target and the RDMA resources).
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"
need_root "its mount namespace (its own /etc/hosts)"

port=7494
http=127.0.0.1:$(free_port)
# module huge: 20,000,000 operations of each kind, over a minute of the
# fake's; module long: 16 at once take some seconds, each one alone a
# tenth of that (the 17 requests reach rdmad together: one curl).
huge_ops=20000000
ini_text "$RDMAD_SRV_ADDR:$port" "http.listen = $http" "log.level = info" \
	"limits.max_iterations = $huge_ops" >"$T/rdmad.ini"
cat >>"$T/rdmad.ini" <<INI
[module.small]
op = read
size = 64
iterations = 3
timeout = 5s
[module.long]
size = 64
iterations = 50000
timeout = 60s
[module.huge]
size = 64
iterations = $huge_ops
timeout = 60s
INI
# rdmad in a mount namespace of its own, with its own /etc/hosts and
# /etc/resolv.conf (nothing of this host's changes): rdmad-srv.test is
# the server address; no nameserver, so any other name has no address at
# once.  The pid stays rdmad's (each step execs the next).
printf '127.0.0.1 localhost\n%s rdmad-srv.test\n' "$RDMAD_SRV_ADDR" >"$T/hosts"
: >"$T/resolv.conf"
printf '#!/bin/sh\nexec unshare --mount --propagation private sh -c %s "%s" "$@"\n' \
	"'mount --bind \"$T/hosts\" /etc/hosts && mount --bind \"$T/resolv.conf\" /etc/resolv.conf && exec \"\$0\" \"\$@\"'" \
	"$RDMAD" >"$T/rdmad-ns"
chmod +x "$T/rdmad-ns"
RDMAD_REAL=$RDMAD RDMAD=$T/rdmad-ns
rdmad_start
RDMAD=$RDMAD_REAL
get() { curl -s -w '\n%{http_code}\n' "http://$http/probe?$1"; }
# geth SECONDS QUERY: get with Prometheus' scrape timeout header.
geth() { curl -s -H "X-Prometheus-Scrape-Timeout-Seconds: $1" -w '\n%{http_code}\n' "http://$http/probe?$2"; }
val() { sed -n "s/^$1 //p" "$2"; }
code() { tail -1 "$1"; }
# idle SECS: until rdmad has no connection open (its /status), or fail.
idle() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		"$CTL" -a "$http" --json status >"$T/idle.json" 2>&1 &&
			grep -q '"connections":{"active":0,' "$T/idle.json" && return 0
		sleep 0.1
	done
	fail "connections still open after $1 s: $(cat "$T/idle.json")"
}

get "target=$RDMAD_SRV_ADDR:$port" >"$T/p-default.out"
[ "$(tail -1 "$T/p-default.out")" = 200 ] || { cat "$T/p-default.out" >&2; fail "/probe (default module): not 200"; }
[ "$(val probe_success "$T/p-default.out")" = 1 ] || { cat "$T/p-default.out" >&2; tail -5 "$T/rdmad.log" >&2; fail "/probe of rdmad itself: probe_success not 1"; }
# default module: read write, 4k, 10 iterations: 10 READs and the last WRITE.
[ "$(val probe_rdma_bytes_verified "$T/p-default.out")" = 45056 ] || { cat "$T/p-default.out" >&2; fail "default module: bytes verified not 45056"; }
grep -q '^probe_rdma_operations{op="write"} 10$' "$T/p-default.out" || fail "default module: not 10 WRITEs"
grep -q '^probe_rdma_connect_seconds 0\.' "$T/p-default.out" || fail "no connect time"

get "target=$RDMAD_SRV_ADDR:$port&module=small" >"$T/p-small.out"
[ "$(val probe_success "$T/p-small.out")" = 1 ] || { cat "$T/p-small.out" >&2; fail "module=small: probe_success not 1"; }
grep -q '^probe_rdma_operations{op="read"} 3$' "$T/p-small.out" &&
	grep -q '^probe_rdma_operations{op="write"} 0$' "$T/p-small.out" &&
	[ "$(val probe_rdma_bytes_verified "$T/p-small.out")" = 192 ] ||
	{ cat "$T/p-small.out" >&2; fail "module=small: not 3 READs of 64 bytes"; }
t0=$(now_ms)
get "target=$RDMAD_SRV_ADDR:7499" >"$T/p-dead.out"
t1=$(now_ms)
[ "$(val probe_success "$T/p-dead.out")" = 0 ] || { cat "$T/p-dead.out" >&2; fail "dead port: probe_success not 0"; }
grep -q '^probe_rdma_failed{class="\(refused\|unreachable\)"} 1$' "$T/p-dead.out" || { cat "$T/p-dead.out" >&2; fail "dead port: class not refused/unreachable"; }
# its class, not a clock, says it did not wait out the module's 5 s
log "/probe: itself 1 (default, small), dead port 0 in $((t1 - t0)) ms ($(sed -n 's/^probe_rdma_failed{class="\(.*\)"} 1$/\1/p' "$T/p-dead.out"))"

# Names: rdmad-srv.test from rdmad's /etc/hosts; one nobody knows is a
# probe that failed (200, probe_success 0, why), not a bad request.
get "target=rdmad-srv.test:$port&module=small" >"$T/p-name.out"
[ "$(code "$T/p-name.out")" = 200 ] && [ "$(val probe_success "$T/p-name.out")" = 1 ] &&
	grep -q '^probe_dns_lookup_time_seconds 0\.' "$T/p-name.out" &&
	grep -q '^probe_ip_protocol 4$' "$T/p-name.out" &&
	grep -q '^probe_rdma_operations{op="read"} 3$' "$T/p-name.out" ||
	{ cat "$T/p-name.out" >&2; fail "/probe of rdmad-srv.test (in /etc/hosts): not 200 with probe_success 1 and its lookup"; }
t0=$(now_ms)
get "target=nowhere.test:$port&module=small" >"$T/p-noname.out"
t1=$(now_ms)
[ "$(code "$T/p-noname.out")" = 200 ] && [ "$(val probe_success "$T/p-noname.out")" = 0 ] &&
	grep -q '^probe_rdma_failed{class="unresolved"} 1$' "$T/p-noname.out" &&
	grep -q '^# error: not in /etc/hosts, and /etc/resolv.conf names no nameserver$' "$T/p-noname.out" ||
	{ cat "$T/p-noname.out" >&2; fail "/probe of a name nobody knows: not 200, probe_success 0, class unresolved and why"; }
log "names: rdmad-srv.test probed (lookup $(val probe_dns_lookup_time_seconds "$T/p-name.out") s), nowhere.test unresolved in $((t1 - t0)) ms"

get "target=$RDMAD_SRV_ADDR:$port&module=nope" >"$T/p-nomod.out"
[ "$(code "$T/p-nomod.out")" = 400 ] && grep -q "unknown module 'nope'" "$T/p-nomod.out" ||
	{ cat "$T/p-nomod.out" >&2; fail "unknown module: not 400"; }
for q in "target=" "module=small" "target=$RDMAD_SRV_ADDR:99999" "target=10.2:1" "target=a..b"; do
	get "$q" >"$T/p-bad.out"
	[ "$(code "$T/p-bad.out")" = 400 ] && grep -q "target: want HOST:PORT" "$T/p-bad.out" ||
		{ cat "$T/p-bad.out" >&2; fail "bad target '$q': not 400"; }
done
get "target=$RDMAD_SRV_ADDR:$port&debug=maybe" >"$T/p-bad.out"
[ "$(code "$T/p-bad.out")" = 400 ] && grep -q "debug: want true or false" "$T/p-bad.out" ||
	{ cat "$T/p-bad.out" >&2; fail "debug=maybe: not 400"; }
for h in 0 -1 ten 1e3; do
	geth "$h" "target=$RDMAD_SRV_ADDR:$port&module=small" >"$T/p-bad.out"
	[ "$(code "$T/p-bad.out")" = 400 ] && grep -q "X-Prometheus-Scrape-Timeout-Seconds: want seconds" "$T/p-bad.out" ||
		{ cat "$T/p-bad.out" >&2; fail "scrape timeout header '$h': not 400"; }
done

# debug=true: the steps, then the metrics, then the module.
get "target=rdmad-srv.test:$port&module=small&debug=true" >"$T/p-debug.out"
[ "$(code "$T/p-debug.out")" = 200 ] && [ "$(head -1 "$T/p-debug.out")" = "Logs for the probe:" ] &&
	grep -q "s  rdmad-srv.test resolved to $RDMAD_SRV_ADDR:$port in " "$T/p-debug.out" &&
	grep -q "s  probe succeeded: 192 bytes verified$" "$T/p-debug.out" &&
	grep -q '^Metrics that would have been returned:$' "$T/p-debug.out" &&
	grep -q '^probe_success 1$' "$T/p-debug.out" &&
	grep -q '^Module configuration:$' "$T/p-debug.out" && grep -q '^\[module.small\]$' "$T/p-debug.out" ||
	{ cat "$T/p-debug.out" >&2; fail "debug=true: not the steps, the metrics and the module"; }
# The scrape's timeout at its boundaries (module small: 5 s): the probe's
# timeout as its steps say.
for hv in 5.499:4999 5.5:5000 60:5000 1:500; do
	geth "${hv%%:*}" "target=rdmad-srv.test:$port&module=small&debug=true" >"$T/p-budget.out"
	grep -q "s  probe of rdmad-srv.test:$port, module small (read, 64 bytes, 3 iterations), timeout ${hv##*:} ms$" "$T/p-budget.out" ||
		{ cat "$T/p-budget.out" >&2; fail "scrape timeout ${hv%%:*} s: the probe's timeout not ${hv##*:} ms"; }
done
# A long probe (module huge, timeout 60 s) under a 3 s scrape: answered
# before the scrape gives up, not after the module's timeout.  The time
# is curl's own, request to answer.
ms=$(curl -s -o "$T/p-scrape.out" -H "X-Prometheus-Scrape-Timeout-Seconds: 3" \
	-w '%{http_code} %{time_total}' "http://$http/probe?target=$RDMAD_SRV_ADDR:$port&module=huge" |
	awk '$1 == 200 { printf "%d", $2 * 1000 }')
log "module huge under a 3 s scrape: answered in ${ms:-?} ms: $(grep '^probe_rdma_failed\|^probe_duration' "$T/p-scrape.out" | tr '\n' ' ')"
[ -n "$ms" ] && [ "$(val probe_success "$T/p-scrape.out")" = 0 ] &&
	grep -q '^probe_rdma_failed{class="timeout"} 1$' "$T/p-scrape.out" ||
	{ cat "$T/p-scrape.out" >&2; fail "module huge under a 3 s scrape: not 200, probe_success 0, class timeout"; }
# at least the scrape's 3 s less 0.5, and far from module huge's 60 s
# (a loaded machine answers late: no upper bound tighter than that)
[ "$ms" -ge 2500 ] && [ "$ms" -lt 15000 ] ||
	fail "module huge under a 3 s scrape: answered in $ms ms, want 2500 ms or more, far under 60 s (the scrape's 3 s less 0.5)"
idle 20

# The documented scrape job and alert, in a real Prometheus (scrape
# timeout 2 s, module huge's 60 s): both targets' probes fail, and the
# scrapes succeed with probe_success 0, so the alert fires.
pport=$(free_port)
mkdir -p "$T/prom"
cat >"$T/prom/rules.yml" <<YML
groups:
  - name: t-32
    rules:
      - alert: RdmaProbeFailed
        expr: probe_success{job="rdma_probe"} == 0
        for: 6s
YML
cat >"$T/prom/prometheus.yml" <<YML
global:
  scrape_interval: 3s
  evaluation_interval: 1s
rule_files: ['$T/prom/rules.yml']
scrape_configs:
  - job_name: rdma_probe
    metrics_path: /probe
    params:
      module: [huge]
    scrape_timeout: 2s
    static_configs:
      - targets: ['$RDMAD_SRV_ADDR:$port', 'nowhere.test:$port']
    relabel_configs:
      - source_labels: [__address__]
        target_label: __param_target
      - source_labels: [__param_target]
        target_label: instance
      - target_label: __address__
        replacement: $http
YML
promtool check config "$T/prom/prometheus.yml" >"$T/prom/check.log" 2>&1 ||
	fail "Prometheus refuses the config: $(cat "$T/prom/check.log")"
prometheus --config.file="$T/prom/prometheus.yml" --storage.tsdb.path="$T/prom/data" \
	--web.listen-address=127.0.0.1:$pport --log.level=warn >"$T/prom/prom.log" 2>&1 &
ppid_=$!
promq() { curl -s -G "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" >"$T/prom/q.json"; json_get "$T/prom/q.json" "$2"; }
# What each query saw, gathered until every claim held once (a loaded
# machine: a scrape past its timeout now and then makes that target's
# series stale and starts its alert's `for` again, so all three are not
# asked of one instant): both targets scraped (up 1), both probes failed
# (probe_success 0), the alert fired for each.  Gives up after 300 s.
# A query before Prometheus listens gives nothing (its error unshown,
# as the values of the last query are what the failures name).
want_up="$RDMAD_SRV_ADDR:$port=1 nowhere.test:$port=1"
want_succ="$RDMAD_SRV_ADDR:$port=0 nowhere.test:$port=0"
want_fired="$RDMAD_SRV_ADDR:$port nowhere.test:$port"
ups= succ= fired= seen_up=0 seen_succ=0 end=$(($(now_ms) + 300000))
declare -A fired_seen=()
while :; do
	kill -0 $ppid_ 2>/dev/null || fail "Prometheus exited: $(tail -5 "$T/prom/prom.log")"
	ups=$(promq 'up{job="rdma_probe"}' '" ".join(sorted(r["metric"]["instance"] + "=" + r["value"][1] for r in d["data"]["result"]))' 2>/dev/null)
	succ=$(promq 'probe_success{job="rdma_probe"}' '" ".join(sorted(r["metric"]["instance"] + "=" + r["value"][1] for r in d["data"]["result"]))' 2>/dev/null)
	for f in $(promq 'ALERTS{alertname="RdmaProbeFailed",alertstate="firing"}' '" ".join(sorted(r["metric"]["instance"] for r in d["data"]["result"]))' 2>/dev/null); do
		fired_seen[$f]=1
	done
	[ "$ups" = "$want_up" ] && seen_up=1
	[ "$succ" = "$want_succ" ] && seen_succ=1
	fired=$(printf '%s\n' "${!fired_seen[@]}" | sort | paste -sd' ')
	[ $seen_up = 1 ] && [ $seen_succ = 1 ] && [ "$fired" = "$want_fired" ] && break
	[ "$(now_ms)" -lt "$end" ] || break
	sleep 0.3
done
kill $ppid_
wait $ppid_
log "Prometheus: up $ups; probe_success $succ (last query); RdmaProbeFailed fired for: $fired"
[ $seen_up = 1 ] ||
	fail "Prometheus' scrapes of /probe: up $ups, want 1 for both targets (never both in 300 s)"
[ $seen_succ = 1 ] ||
	fail "Prometheus stored probe_success $succ, want 0 for both targets (never both in 300 s)"
[ "$fired" = "$want_fired" ] ||
	fail "the documented alert fired for '$fired' in 300 s, want both targets"
idle 20

# 17 at once: 16 run, the 17th is told to come back.  One curl sends the
# 17 requests together, so they overlap however fast the fake moves;
# module long's 60 s, the most a module takes, is far more than 16 at
# once need.
urls=()
for i in $(seq 17); do
	urls+=(-o "$T/p-many.$i" "http://$http/probe?target=$RDMAD_SRV_ADDR:$port&module=long")
done
curl -s -Z --parallel-immediate --parallel-max 17 -w '%{http_code}\n' "${urls[@]}" >"$T/p-many.codes"
codes=$(sort "$T/p-many.codes" | uniq -c | tr -s ' ' | tr '\n' ',')
[ "$(grep -c '^200$' "$T/p-many.codes")" = 17 ] ||
	fail "17 probes at once: codes $codes, want 17 x 200 (one of them not run)"
ok=$(cat "$T"/p-many.[0-9] "$T"/p-many.[0-9][0-9] | grep -c '^probe_success 1$')
busy=$(cat "$T"/p-many.[0-9] "$T"/p-many.[0-9][0-9] | grep -c '^probe_rdma_failed{class="busy"} 1$')
[ "$ok $busy" = "16 1" ] || fail "17 at once: $ok succeeded and $busy busy, want 16 and 1"
idle 20
# A client that goes away mid-probe (module huge): the probe is aborted
# at once.
n0=$(grep -c 'close: native, result ' "$T/rdmad.log")
curl -s -m 1 "http://$http/probe?target=$RDMAD_SRV_ADDR:$port&module=huge" >/dev/null
rdmad_alive
idle 5
# its session closed within 10 s, not at the module's 60 s timeout
closed_more() { [ "$(grep -c 'close: native, result ' "$T/rdmad.log")" -gt "$n0" ]; }
for ((i = 0; i < 100; i++)); do closed_more && break; sleep 0.1; done
closed_more || fail "the abandoned probe was not aborted: its session still open after 10 s"
n=$(grep 'close: native' "$T/rdmad.log" | tail -1 | sed -n 's/.* \([0-9]*\) operations.*/\1/p')
[ -n "$n" ] && [ "$n" -lt $((2 * huge_ops)) ] || fail "the abandoned probe was not aborted: $(grep 'close:' "$T/rdmad.log" | tail -1)"
get "target=$RDMAD_SRV_ADDR:$port&module=small" >"$T/p-after.out"
[ "$(val probe_success "$T/p-after.out")" = 1 ] || fail "/probe after all that: not 1"
log "/probe: 400s; 17 at once: $codes 16 succeeded, 1 busy; a client gone mid-probe ($n operations)"

# HEAD /probe: no probe run.
n0=$(grep -c 'open: native' "$T/rdmad.log")
code=$(curl -s -I -o /dev/null -w '%{http_code}' "http://$http/probe?target=$RDMAD_SRV_ADDR:$port&module=small")
sleep 1
n1=$(grep -c 'open: native' "$T/rdmad.log")
[ "$code" = 405 ] || fail "HEAD /probe: $code, want 405"
[ "$n0" = "$n1" ] || fail "HEAD /probe ran a probe ($n0 -> $n1 sessions opened)"
rdmad_alive
exit 0
