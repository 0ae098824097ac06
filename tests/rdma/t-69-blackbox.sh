#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# t-69: rdmad-hostile corrupt (a server that returns wrong bytes) is caught
# by rdma-probe: exit 9 native (READ) and with --rounds (mesh).
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

HOSTILE=$RDMAD_BUILD_DIR/tests/hostile/rdmad-hostile
[ -x "$PROBE" ] || fail "no rdma-probe at $PROBE"
[ -x "$HOSTILE" ] || fail "no rdmad-hostile at $HOSTILE"
cport=7493

srv exec "$HOSTILE" -p $cport corrupt "$RDMAD_SRV_ADDR" >"$T/corrupt.out" 2>&1 &
cpid=$!
wait_listen $cport
cprobe() { cli timeout 60 "$PROBE" -I "$RDMAD_CLI_ADDR" -p $cport -t 5 "$@" "$RDMAD_SRV_ADDR"; }

cprobe -s 4k -n 2 --seed 5 >"$T/cn.out" 2>&1
rc=$?
[ $rc = 9 ] || { cat "$T/cn.out" "$T/corrupt.out" >&2; fail "native probe of the corrupt server: exit $rc, want 9"; }
grep -q 'offset 40' "$T/cn.out" || { cat "$T/cn.out" >&2; fail "native: no mismatch at offset 40"; }
cprobe --op write -s 4k -n 2 >"$T/cw.out" 2>&1
rc=$?
[ $rc = 9 ] || { cat "$T/cw.out" "$T/corrupt.out" >&2; fail "WRITE-only probe of the corrupt server: exit $rc, want 9"; }
cprobe --rounds 5 --interval 0.1 -s 8k >"$T/cm.out" 2>&1
rc=$?
[ $rc = 9 ] || { cat "$T/cm.out" "$T/corrupt.out" >&2; fail "--rounds -s 8k against the corrupt server: exit $rc, want 9"; }
n=$(grep -c '^round [0-4]: 8192 bytes written and read back, MISMATCH at offset 40' "$T/cm.out")
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
kill $cpid; wait $cpid
cat "$T/corrupt.out" >&2
grep -q '^ok corrupt: 7 sessions served' "$T/corrupt.out" || fail "the corrupt server did not count 7 sessions"
exit 0
