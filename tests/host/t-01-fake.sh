#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The host suite's own check: rdmad-fake starts from a configuration,
# answers /metrics and a /probe of itself (bytes verified through the
# fake's READ and WRITE), re-reads its configuration on SIGHUP and stops
# on SIGTERM with status 0.
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"

hp=$(free_port)
ini_text "$RDMAD_SRV_ADDR:7471" "http.listen = 127.0.0.1:$hp" >"$T/rdmad.ini"
rdmad_start
curl -sf "http://127.0.0.1:$hp/metrics" >"$T/metrics" || fail "no /metrics on port $hp"
grep -q "^rdmad_listener_up{address=\"$RDMAD_SRV_ADDR:7471\"} 1" "$T/metrics" ||
	fail "/metrics: the listener is not up"
curl -sf "http://127.0.0.1:$hp/probe?target=$RDMAD_SRV_ADDR:7471" >"$T/probe" ||
	fail "/probe of itself did not answer"
grep -q '^probe_success 1' "$T/probe" || fail "/probe of itself failed: $(cat "$T/probe")"
bytes=$(awk '$1 == "probe_rdma_bytes_verified" { print $2 }' "$T/probe")
[ "${bytes:-0}" -gt 0 ] || fail "/probe verified no bytes"
rdmad_reload
rdmad_alive
kill -TERM "$RDMAD_PID"
wait "$RDMAD_PID"
rc=$?
[ "$rc" = 0 ] || fail "rdmad-fake exited $rc on SIGTERM"
log "rdmad-fake: /metrics, /probe ($bytes bytes verified), reload, stop"
