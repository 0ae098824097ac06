#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe --busy-poll: completions are polled, not waited for; the
# runs are verified like event-driven ones, with one or several
# connections, and timeouts still work while spinning.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe
port=7484
rdmad_conf $port
# rdmad's own pid (not a wrapper's), for SIGSTOP below.
# shellcheck disable=SC2016 # expanded by the inner sh
srv sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$T/rdmad.pid" \
	"$RDMAD" -c "$T/rdmad.ini" >"$T/rdmad.log" 2>&1 &
wait_listen $port
rpid=$(cat "$T/rdmad.pid")

probe_ok bp.json --busy-poll -s 64 -n 200 --op read --json
python3 - "$T/bp.json" <<'PY' || fail "busy-poll JSON: $(cat "$T/bp.json")"
import json, sys
d = json.load(open(sys.argv[1]))
x = d["runs"][0]["ops"]["read"]
assert d["options"]["busy_poll"] is True and x["ops"] == 200, d
print("# busy-poll 64 B READ p50 %d ns, p99 %d ns" % (x["latency_ns"]["p50"], x["latency_ns"]["p99"]))
PY

probe_ok bp4.out --busy-poll -P 4 --depth 4 -s 32k -n 20
grep -q 'verification *OK: 4 connections; 80 READs matched' "$T/bp4.out" ||
	fail "busy-poll -P 4: $(cat "$T/bp4.out")"
grep -q 'busy-poll' "$T/bp4.out" || fail "report does not say busy-poll"

# Deadlines still fire while spinning: a stopped server times out (6).
kill -STOP "$rpid"
probe_run stall.out --busy-poll -s 4k -n 2 -t 1
kill -CONT "$rpid"
[ "$rc" = 6 ] || fail "busy-poll stalled server: exit $rc, want 6: $(cat "$T/stall.err")"
exit 0
