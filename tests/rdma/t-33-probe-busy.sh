#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe against a full rdmad (max_connections = 1): rejected with the
# server's "busy" reason (exit 5), quickly; served again once the slot is
# free.  -q prints nothing on success.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe
port=7473
rdmad_up $port "server.max_connections = 1" "log.level = debug"

# Hold the only slot with an endless stock rping client (its own pid, not
# a wrapper's, so that killing it frees the slot).
# shellcheck disable=SC2016 # expanded by the inner sh
cli sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$T/holder.pid" \
	rping -c -a "$RDMAD_SRV_ADDR" -I "$RDMAD_CLI_ADDR" -p $port -C 0 -S 64 >"$T/holder.log" 2>&1 &
log_has 'open: rping' 10 "$T/rdmad.log" || fail "the holder never connected"

start=$(date +%s%N)
probe_run busy.out -s 4k -n 2 -t 60
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" = 5 ] || fail "full server: exit $rc, want 5: $(cat "$T/busy.err")"
grep -q 'rejected by server: busy' "$T/busy.err" ||
	fail "full server: message: $(cat "$T/busy.err")"
grep -q 'FAILED (exit 5, rejected by server)' "$T/busy.out" ||
	fail "full server: report: $(cat "$T/busy.out")"
[ "$ms" -lt 60000 ] || fail "full server: rejection took ${ms} ms (-t 60: a rejection, not a timeout)"
log "full server: exit 5 in ${ms} ms: $(cat "$T/busy.err")"

holder=$(cat "$T/holder.pid")
kill "$holder" || fail "cannot kill the holder ($holder)"

# The slot comes back once rdmad has seen the holder go.
ok=0
for ((i = 0; i < 20; i++)); do
	probe_run after.out -q -s 4k -n 2 -t 10 && { ok=1; break; }
	[ "$rc" = 5 ] || fail "after the holder left: exit $rc: $(cat "$T/after.err")"
	sleep 0.5
done
[ "$ok" = 1 ] || fail "still rejected 10 s after the holder left"
[ -s "$T/after.out" ] && fail "-q printed: $(cat "$T/after.out")"
[ -s "$T/after.err" ] && fail "-q printed on stderr: $(cat "$T/after.err")"
kill -0 "$rpid" 2>/dev/null || fail "rdmad is not running any more"
exit 0
