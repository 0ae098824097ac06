#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# t-69: GET /probe (blackbox-style probes, issue 13) and the server that
# returns wrong bytes.  rdmad-hostile corrupt is caught by rdma-probe: exit
# 9 native (READ at offset 40, and the server's RESULT for a WRITE) and with
# --rounds (every round over 4136 bytes at offset 40; 4 KiB rounds verify),
# two mesh sessions and a native one at once.  rdmad with [http] and
# modules: /probe of itself -> probe_success 1 (default and module=small,
# the bytes and operations as the module says); a dead port -> 0, quickly;
# the corrupt server -> 0, class mismatch; unknown module, bad target ->
# 400; 17 at once -> 16 answered, 1 busy (503); a client that goes away
# mid-probe; RDMA resources back to the baseline.  HEAD /probe runs no
# probe (405).  A target that stops answering mid-probe (SIGSTOP: the
# kernel still serves its READs, nobody answers the disconnect) gets its
# answer within the module's timeout, not twice it.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

HOSTILE=$RDMAD_BUILD_DIR/tests/hostile/rdmad-hostile
need probe
[ -x "$HOSTILE" ] || fail "no rdmad-hostile at $HOSTILE"
cport=7493

srv exec "$HOSTILE" -p $cport corrupt "$RDMAD_SRV_ADDR" >"$T/corrupt.out" 2>&1 &
cpid=$!
wait_listen $cport
cprobe() { cli timeout 60 "$PROBE" -I "$RDMAD_CLI_ADDR" -p $cport -t 5 "$@" "$RDMAD_SRV_ADDR"; }

cprobe -s 4k -n 2 --seed 5 >"$T/cn.out" 2>&1
rc=$?
[ $rc = 9 ] || { cat "$T/cn.out" "$T/corrupt.out" >&2; fail "native probe of the corrupt server: exit $rc, want 9"; }
grep -qE 'offset 4[0-7]\b' "$T/cn.out" || { cat "$T/cn.out" >&2; fail "native: no mismatch at offset 40"; }
cprobe --op write -s 4k -n 2 >"$T/cw.out" 2>&1
rc=$?
[ $rc = 9 ] || { cat "$T/cw.out" "$T/corrupt.out" >&2; fail "WRITE-only probe of the corrupt server: exit $rc, want 9"; }
cprobe --rounds 5 --interval 0.1 -s 8k >"$T/cm.out" 2>&1
rc=$?
[ $rc = 9 ] || { cat "$T/cm.out" "$T/corrupt.out" >&2; fail "--rounds -s 8k against the corrupt server: exit $rc, want 9"; }
n=$(grep -cE '^round [0-4]: 8192 bytes written and read back, MISMATCH at offset 4[0-7],' "$T/cm.out")
[ "$n" = 5 ] || { cat "$T/cm.out" >&2; fail "$n of 5 rounds of 8 KiB mismatched at offset 40, want 5"; }
# Rounds within a page and 40 bytes read back what they wrote.
cprobe --rounds 3 --interval 0 -s 4k >"$T/cs.out" 2>&1 ||
	{ cat "$T/cs.out" "$T/corrupt.out" >&2; fail "--rounds -s 4k against the corrupt server failed"; }
# Mesh sessions are held: two at once, and a native one meanwhile.
cprobe --rounds 4 --interval 0.5 -s 8k -q >"$T/c1.out" 2>&1 &
j1=$!
cprobe --rounds 4 --interval 0.5 -s 64k -q >"$T/c2.out" 2>&1 &
j2=$!
sleep 0.5
cprobe -s 64 -n 1 >"$T/c3.out" 2>&1
rc3=$?
wait $j1; rc1=$?
wait $j2; rc2=$?
[ "$rc1 $rc2 $rc3" = "9 9 9" ] || { cat "$T/c1.out" "$T/c2.out" "$T/c3.out" "$T/corrupt.out" >&2; fail "two mesh sessions and a native one at once: exit $rc1 $rc2 $rc3, want 9 9 9"; }
log "corrupt server: native exit 9 (offset 40), WRITE-only exit 9, mesh 8 KiB rounds all mismatched at 40 (exit 9), 4 KiB rounds verified"

# ---- GET /probe -------------------------------------------------------
port=7494
http=127.0.0.1:9494
rdmad_conf $port "http.listen = $http" "log.level = info"
cat >>"$T/rdmad.ini" <<INI
[module.small]
op = read
size = 64
iterations = 3
timeout = 5s
[module.long]
size = 64
iterations = 1000
timeout = 30s
[module.huge]
size = 64
iterations = 100000
timeout = 60s
[module.stall]
size = 64
iterations = 100000
timeout = 4s
INI
rdmad_start
rpid=$RDMAD_PID
base=$(rdma_res_counts $rpid)
get() { curl -s -w '\n%{http_code}\n' "http://$http/probe?$1"; }
val() { sed -n "s/^$1 //p" "$2"; }

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
# The port defaults to 7471: nothing listens there.
t0=$(now_ms)
get "target=$RDMAD_SRV_ADDR:7499" >"$T/p-dead.out"
t1=$(now_ms)
[ "$(val probe_success "$T/p-dead.out")" = 0 ] || { cat "$T/p-dead.out" >&2; fail "dead port: probe_success not 0"; }
grep -q '^probe_rdma_failed{class="\(refused\|unreachable\)"} 1$' "$T/p-dead.out" || { cat "$T/p-dead.out" >&2; fail "dead port: class not refused/unreachable"; }
[ $((t1 - t0)) -lt 3000 ] || fail "dead port took $((t1 - t0)) ms"
get "target=$RDMAD_SRV_ADDR:$cport" >"$T/p-corrupt.out"
[ "$(val probe_success "$T/p-corrupt.out")" = 0 ] &&
	grep -q '^probe_rdma_failed{class="mismatch"} 1$' "$T/p-corrupt.out" ||
	{ cat "$T/p-corrupt.out" >&2; fail "corrupt server: not probe_success 0 with class mismatch"; }
log "/probe: itself 1 (default, small), dead port 0 in $((t1 - t0)) ms ($(sed -n 's/^probe_rdma_failed{class="\(.*\)"} 1$/\1/p' "$T/p-dead.out")), corrupt server 0 (mismatch)"

get "target=$RDMAD_SRV_ADDR:$port&module=nope" >"$T/p-nomod.out"
[ "$(tail -1 "$T/p-nomod.out")" = 400 ] && grep -q "unknown module 'nope'" "$T/p-nomod.out" ||
	{ cat "$T/p-nomod.out" >&2; fail "unknown module: not 400"; }
for q in "target=foo.example:1" "target=" "module=small" "target=$RDMAD_SRV_ADDR:99999"; do
	get "$q" >"$T/p-bad.out"
	[ "$(tail -1 "$T/p-bad.out")" = 400 ] && grep -q "target: want HOST:PORT" "$T/p-bad.out" ||
		{ cat "$T/p-bad.out" >&2; fail "bad target '$q': not 400"; }
done

# 17 at once: 16 run, the 17th is told to come back.
pids=
for i in $(seq 17); do
	curl -s -o "$T/p-many.$i" -w '%{http_code}\n' "http://$http/probe?target=$RDMAD_SRV_ADDR:$port&module=long" >"$T/p-many.$i.code" &
	pids+=" $!"
done
# shellcheck disable=SC2086
wait $pids
codes=$(cat "$T"/p-many.*.code | sort | uniq -c | tr -s ' ' | tr '\n' ',')
[ "$(grep -l '^200$' "$T"/p-many.*.code | wc -l)" = 16 ] && [ "$(grep -l '^503$' "$T"/p-many.*.code | wc -l)" = 1 ] ||
	fail "17 probes at once: codes $codes, want 16 x 200 and 1 x 503"
ok=$(cat "$T"/p-many.[0-9] "$T"/p-many.[0-9][0-9] | grep -c '^probe_success 1$')
[ "$ok" = 16 ] || fail "17 at once: $ok of 16 answered probes succeeded"
wait_res_counts $rpid "$base" 20
# A client that goes away mid-probe (200000 operations, some 15 s): the
# probe is aborted at once.
curl -s -m 1 "http://$http/probe?target=$RDMAD_SRV_ADDR:$port&module=huge" >/dev/null
rdmad_alive
wait_res_counts $rpid "$base" 5
wait_log 'close: native, result ' 5
n=$(grep 'close: native' "$T/rdmad.log" | tail -1 | sed -n 's/.* \([0-9]*\) operations.*/\1/p')
[ -n "$n" ] && [ "$n" -lt 200000 ] || fail "the abandoned probe was not aborted: $(grep 'close:' "$T/rdmad.log" | tail -1)"
get "target=$RDMAD_SRV_ADDR:$port&module=small" >"$T/p-after.out"
[ "$(val probe_success "$T/p-after.out")" = 1 ] || fail "/probe after all that: not 1"
log "/probe: 400s; 17 at once: $codes 16 succeeded; a client gone mid-probe; resources back to $base"

# HEAD /probe: no probe run.
n0=$(grep -c 'open: native' "$T/rdmad.log")
code=$(curl -s -I -o /dev/null -w '%{http_code}' "http://$http/probe?target=$RDMAD_SRV_ADDR:$port&module=small")
sleep 1
n1=$(grep -c 'open: native' "$T/rdmad.log")
# Both checks below are made before either fails the test.
late=
[ "$code" = 405 ] || late+="HEAD /probe: $code, want 405; "
[ "$n0" = "$n1" ] || late+="HEAD /probe ran a probe ($n0 -> $n1 sessions opened); "

# A target stopped mid-probe: answered at the module's timeout (4 s), not
# after another timeout spent waiting for its disconnect.
declare -A SPID
rdmad_serve 7495
RDMAD_PID=$rpid RDMAD_CONF=$T/rdmad.ini
get "target=$RDMAD_SRV_ADDR:7495&module=stall" >"$T/p-stall.out" &
g=$!
wait_log 'open: native' 20 "$T/s7495.log"
t0=$(now_ms)	# the probe is connected: its timeout runs
sleep 0.5
kill -STOP "${SPID[7495]}"
wait $g
t1=$(now_ms)
kill -CONT "${SPID[7495]}"
kill "${SPID[7495]}"
log "stalled target: answered $((t1 - t0)) ms after it connected: $(grep '^probe_rdma_failed\|^probe_duration' "$T/p-stall.out" | tr '\n' ' ')"
[ "$(val probe_success "$T/p-stall.out")" = 0 ] &&
	grep -q '^probe_rdma_failed{class="timeout"} 1$' "$T/p-stall.out" ||
	{ cat "$T/p-stall.out" >&2; fail "stalled target: not probe_success 0, class timeout"; }
[ $((t1 - t0)) -lt 6000 ] || late+="stalled target: /probe answered $((t1 - t0)) ms after it connected, module timeout 4 s; "
[ -z "$late" ] || fail "$late"
wait_res_counts $rpid "$base" 30
rdmad_alive

kill $cpid; wait $cpid
cat "$T/corrupt.out" >&2
grep -q '^ok corrupt: 8 sessions served' "$T/corrupt.out" || fail "the corrupt server did not count 8 sessions"
exit 0
