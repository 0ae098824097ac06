#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe --rounds against rdmad: a mesh session of 5 rounds 0.2 s apart,
# every round verified (a line each, the summary, exit 0), rdmad logs the
# mesh open and a clean close; one that outlives the server's session
# deadline; --json; -q prints nothing; a round larger than the server
# allows is rejected (exit 5); usage errors (exit 64); resources back; a
# keyed rdmad: AUTH, then the rounds; without the key exit 10.  --tos:
# mesh and native sessions with rdma_cm's TOS option (-v says so, the
# report and --json show it, the cm_id has it), --tos 256 exit 64.
# --op read: READ-only rounds (one WRITE, then READs alone, all verified).
# A server without mesh sessions (exit 5, "server does not support mesh
# sessions") and a round's mismatch (exit 9) are unit-tested
# (test-rdma-client-fsm, test-probe-report): no such server here.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe python3
port=7487
rdmad_up $port "limits.max_buffer_size = 1m" "timeouts.session = 2s" \
	"timeouts.close = 1s" "log.level = info"

probe() { cli timeout 60 "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -t 30 "$@" "$RDMAD_SRV_ADDR"; }

# 5 rounds, 0.2 s apart: a line each, all verified.
t0=$(now_ms)
probe --rounds 5 --interval 0.2 -s 4k --seed 7 >"$T/five.out" 2>"$T/five.err"
rc=$?
t1=$(now_ms)
[ $rc = 0 ] || { cat "$T/five.out" "$T/five.err" >&2; tail -5 "$T/rdmad.log" >&2; fail "--rounds 5: exit $rc"; }
n=$(grep -c '^round [0-4]: 4096 bytes written and read back, verified, write .* read ' "$T/five.out")
[ "$n" = 5 ] || { cat "$T/five.out" >&2; fail "$n verified round lines, want 5"; }
grep -q 'rounds         5 of 5: 5 verified, 0 mismatched' "$T/five.out" ||
	{ cat "$T/five.out" >&2; fail "no summary of 5 verified rounds"; }
grep -q 'verification   OK: 5 rounds' "$T/five.out" || fail "no OK verdict"
# 4 intervals of 0.2 s between the first and the last start.
[ $((t1 - t0)) -ge 800 ] || fail "5 rounds 0.2 s apart took $((t1 - t0)) ms (< 800)"
wait_log 'close: native, result ok' 10 "$T/rdmad.log" || { tail "$T/rdmad.log" >&2; fail "rdmad did not log a clean close"; }
grep -q 'open: native mesh, size 4096' "$T/rdmad.log" || fail "rdmad did not log the mesh open"
log "5 rounds verified in $((t1 - t0)) ms; rdmad: mesh open, close ok"

# Longer than the server's session deadline (2 s): mesh sessions have none.
probe --rounds 6 --interval 0.5 -s 64 -q >"$T/long.out" 2>"$T/long.err"
rc=$?
[ $rc = 0 ] || { cat "$T/long.err" >&2; tail -5 "$T/rdmad.log" >&2; fail "6 rounds over 2.5 s: exit $rc"; }
[ ! -s "$T/long.out" ] || { cat "$T/long.out" >&2; fail "-q printed something"; }
log "6 rounds over 2.5 s with session = 2s: verified, -q silent"

# --json: the rounds object.
probe --rounds 3 --interval 0 -s 1k --json >"$T/r.json" 2>"$T/r.err"
rc=$?
[ $rc = 0 ] || { cat "$T/r.err" >&2; fail "--json rounds: exit $rc"; }
python3 - "$T/r.json" <<'PY' || fail "--json rounds document wrong"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_code"] == 0 and d["ok"] is True, d["exit_code"]
assert d["options"]["rounds"] == 3 and d["options"]["interval_ms"] == 0
c = d["runs"][0]["conns"][0]
r = c["rounds"]
assert c["class"] == "none", c
assert (r["requested"], r["done"], r["verified"], r["mismatch"]) == (3, 3, 3, 0), r
assert r["first_bad_round"] is None and r["round_ns"]["p50"] > 0, r
PY

# Over the server's max_buffer_size: refused at admission.
probe --rounds 2 -s 2m >"$T/big.out" 2>&1
rc=$?
[ $rc = 5 ] || { cat "$T/big.out" >&2; fail "--rounds -s 2m: exit $rc, want 5"; }

# Usage errors.
probe --rounds 2 --depth 4 >"$T/usage.out" 2>&1
rc=$?
[ $rc = 64 ] || fail "--rounds --depth: exit $rc, want 64"
grep -q -- '--rounds cannot be used with --depth' "$T/usage.out" || fail "no usage message"

# A plain native probe still works; everything released.
probe -s 4k -n 3 >"$T/native.out" 2>&1 || { cat "$T/native.out" >&2; fail "native probe failed"; }
kill -0 $rpid 2>/dev/null || fail "rdmad died"
wait_res_counts $rpid "$base" 20
ok=$(grep -c 'close: native, result ok' "$T/rdmad.log")
[ "$ok" = 4 ] || { grep close: "$T/rdmad.log" >&2; fail "rdmad logged $ok ok closes, want 4"; }
log "json, over-limit reject, usage errors, native alongside; resources back to $base"

# A keyed rdmad: AUTH first (its MAC covers the HELLO with the MESH flag).
kport=7488
key=$T/psk
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$key"
chmod 600 "$key"
ini_text "$RDMAD_SRV_ADDR:$kport" "auth.psk_file = $key" "http.listen = off" >"$T/keyed.ini"
rdmad_start "$T/keyed.ini" "$T/keyed.log"
kprobe() { cli timeout 60 "$PROBE" -I "$RDMAD_CLI_ADDR" -p $kport -t 30 "$@" "$RDMAD_SRV_ADDR"; }
kprobe --psk-file "$key" --rounds 3 --interval 0.1 -s 512 >"$T/keyed.out" 2>&1 ||
	{ cat "$T/keyed.out" >&2; tail -5 "$T/keyed.log" >&2; fail "keyed --rounds 3 failed"; }
grep -q 'rounds         3 of 3: 3 verified' "$T/keyed.out" || fail "keyed: no 3 verified rounds"
kprobe --rounds 3 -s 512 >"$T/nokey.out" 2>&1
rc=$?
[ $rc = 10 ] || { cat "$T/nokey.out" >&2; fail "keyed, no key: exit $rc, want 10"; }
log "keyed rdmad: 3 rounds verified after AUTH; without the key exit 10"

# --tos: rdma_cm's TOS option on the probe's connections (t-89 sees the
# byte on the wire).  Mesh and native sessions work with it; the kernel's
# cm_id shows it (when this rdma tool prints tos) while a session is up:
# looked for as long as the probe runs (20 rounds, at least 4.75 s
# connected), however late a loaded guest starts it.
probe --tos 0x60 --rounds 20 --interval 0.25 -s 64 -v >"$T/tos.out" 2>"$T/tos.err" &
tpid=$!
line=""
while kill -0 $tpid 2>/dev/null; do
	line=$(rdma resource show cm_id 2>/dev/null | grep 'state CONNECT .*comm rdma-probe' | head -1)
	[ -n "$line" ] && break
	sleep 0.1
done
tos=none
if [[ $line == *" tos "* ]]; then
	tos=${line##* tos }
	tos=${tos%% *}
fi
wait $tpid
rc=$?
[ $rc = 0 ] || { cat "$T/tos.out" "$T/tos.err" >&2; fail "--tos 0x60 --rounds 20: exit $rc"; }
grep -q 'TOS 0x60 (DSCP 24, ECN 0)' "$T/tos.err" || { cat "$T/tos.err" >&2; fail "-v: no TOS line"; }
grep -q 'rounds         20 of 20: 20 verified' "$T/tos.out" || fail "--tos: no 20 verified rounds"
grep -q 'interval 0.250 s, TOS 0x60, seed' "$T/tos.out" || fail "--tos: not in the operations line"
[ -n "$line" ] || fail "--tos 0x60: no connected cm_id of rdma-probe seen"
case $tos in
96) log "--tos 0x60: the probe's cm_id has tos 96: $line" ;;
none) log "--tos 0x60: this rdma tool does not print a cm_id's tos: $line" ;;
*) fail "--tos 0x60: the probe's cm_id shows tos '$tos' (want 96): $line" ;;
esac
probe --tos 104 -s 4k -n 3 --json >"$T/tos.json" 2>"$T/tos-json.err" ||
	{ cat "$T/tos.json" "$T/tos-json.err" >&2; fail "native --tos 104 failed"; }
python3 - "$T/tos.json" <<'PY' || fail "--tos 104 --json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["options"]["tos"] == 104 and d["exit_code"] == 0, d["options"]
PY
probe --tos 256 -s 64 >"$T/tos-bad.out" 2>&1
rc=$?
[ $rc = 64 ] || { cat "$T/tos-bad.out" >&2; fail "--tos 256: exit $rc, want 64"; }
log "--tos 0x60: 6 mesh rounds verified; --tos 104 native in --json; --tos 256 exit 64"

# --op read: READ-only rounds; round 0 WRITEs the pattern and READs it
# back, rounds 1-4 READ it back alone.  --op write is refused.
probe --rounds 5 --interval 0 -s 4k --op read >"$T/ro.out" 2>"$T/ro.err" ||
	{ cat "$T/ro.out" "$T/ro.err" >&2; fail "--rounds 5 --op read failed"; }
grep -q '^round 0: 4096 bytes written and read back, verified, write ' "$T/ro.out" ||
	{ cat "$T/ro.out" >&2; fail "--op read: round 0 did not WRITE"; }
n=$(grep -c '^round [1-4]: 4096 bytes read back, verified, read ' "$T/ro.out")
[ "$n" = 4 ] || { cat "$T/ro.out" >&2; fail "--op read: $n READ-only rounds verified, want 4"; }
grep -q 'READ back of a pattern written once' "$T/ro.out" || fail "--op read: operations line"
probe --rounds 2 --op write >"$T/wo.out" 2>&1
rc=$?
[ $rc = 64 ] || { cat "$T/wo.out" >&2; fail "--rounds --op write: exit $rc, want 64"; }
log "--rounds 5 --op read: one WRITE, 4 rounds READ back alone, all verified; --op write exit 64"
exit 0
