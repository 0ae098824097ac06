#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# t-69: GET /probe (blackbox-style probes, issues 13 and 33) and the
# server that returns wrong bytes: what needs real verbs or another
# process (the host suite's t-32-blackbox has the rest, on rdmad-fake).
# rdmad-hostile corrupt is caught by rdma-probe: exit 9 native (READ at
# offset 40, and the server's RESULT for a WRITE) and with --rounds (every
# round over 4136 bytes at offset 40; 4 KiB rounds verify), two mesh
# sessions and a native one at once.  rdmad with [http] and modules:
# /probe of itself -> probe_success 1; the corrupt server -> 0, class
# mismatch.  A target that stops answering mid-probe (SIGSTOP: the
# kernel still serves its READs, nobody answers the disconnect) gets its
# answer within the module's timeout, not twice it.  RDMA resources back
# to the baseline after each.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

HOSTILE=$RDMAD_BUILD_DIR/tests/hostile/rdmad-hostile
need probe
[ -x "$HOSTILE" ] || fail "no rdmad-hostile at $HOSTILE"
cport=7493

srv exec "$HOSTILE" -p $cport corrupt "$RDMAD_SRV_ADDR" >"$T/corrupt.out" 2>&1 &
cpid=$!
wait_listen $cport
cprobe() { cli timeout 60 "$PROBE" -I "$RDMAD_CLI_ADDR" -p $cport -t 30 "$@" "$RDMAD_SRV_ADDR"; }

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
code() { tail -1 "$1"; }

get "target=$RDMAD_SRV_ADDR:$port" >"$T/p-self.out"
[ "$(code "$T/p-self.out")" = 200 ] && [ "$(val probe_success "$T/p-self.out")" = 1 ] ||
	{ cat "$T/p-self.out" >&2; tail -5 "$T/rdmad.log" >&2; fail "/probe of rdmad itself: not 200 with probe_success 1"; }
get "target=$RDMAD_SRV_ADDR:$cport" >"$T/p-corrupt.out"
[ "$(val probe_success "$T/p-corrupt.out")" = 0 ] &&
	grep -q '^probe_rdma_failed{class="mismatch"} 1$' "$T/p-corrupt.out" ||
	{ cat "$T/p-corrupt.out" >&2; fail "corrupt server: not probe_success 0 with class mismatch"; }
log "/probe: itself 1, corrupt server 0 (mismatch)"
wait_res_counts $rpid "$base" 20

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
# bounded by this module's 4 s (a loaded guest answers late, not 15
# times late)
[ $((t1 - t0)) -lt 30000 ] || fail "stalled target: /probe answered $((t1 - t0)) ms after it connected, module timeout 4 s"
wait_res_counts $rpid "$base" 30
rdmad_alive

kill $cpid; wait $cpid
cat "$T/corrupt.out" >&2
grep -q '^ok corrupt: 8 sessions served' "$T/corrupt.out" || fail "the corrupt server did not count 8 sessions"
exit 0
