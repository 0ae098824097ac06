#!/bin/bash
# SIGHUP re-reads the configuration: a raised limit applies to the next
# client.  A broken file refused with FILE:LINE, the daemon serving on
# with the configuration it has, is the host suite's t-30-check-config.
source "$(dirname "$0")/lib.sh"
need probe
port=7626
conf() {	# MAX_BUFFER_SIZE [EXTRA LINE]
	cat >"$T/rdmad.ini" <<INI
[server]
listen = $RDMAD_SRV_ADDR:$port
[limits]
max_buffer_size = $1
${2:-}
INI
}
probe() { cli timeout 60 "$PROBE" -p $port -t 20 "$@" "$RDMAD_SRV_ADDR"; }

conf 64k
rdmad_start "$T/rdmad.ini" "$T/rdmad.log"
rpid=$RDMAD_PID
wait_listen $port
probe -s 128k -n 1 >"$T/p1.log" 2>&1
rc=$?
[ $rc = 5 ] || { cat "$T/p1.log" >&2; fail "128 KiB with a 64 KiB limit: exit $rc, want 5"; }

conf 1m
kill -HUP $rpid
wait_log 'reload: configuration re-read' 10
probe -s 128k -n 2 >"$T/p2.log" 2>&1 ||
	{ cat "$T/p2.log" >&2; fail "128 KiB after raising the limit to 1 MiB failed"; }

kill -0 $rpid 2>/dev/null || fail "rdmad died"
log "reload applied a new limit"
exit 0
