#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rdma-probe interrupted: SIGINT during a long run disconnects every
# connection, prints the report and exits 130; SIGTERM exits 143; a second
# SIGINT right after the first ends the run at once, still 130.  rdmad
# sees each session end and stays healthy.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"
need probe
port=7486
rdmad_conf $port
rdmad_start

# interrupt NAME WANT SIGNAL...: a 60 s, 2-connection run, interrupted
# once open by the signals given; exit WANT within 10 s.
interrupt() {
	local name=$1 want=$2 opens job pid rc t0 t1 s
	shift 2
	opens=$(grep -c 'open: native' "$T/rdmad.log")
	cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -t 10 -P 2 --op read -s 64k -D 60 \
		"$RDMAD_SRV_ADDR" >"$T/$name.out" 2>"$T/$name.err" &
	job=$!
	pid=$(real_pid $job rdma-probe)
	for ((i = 0; i < 200; i++)); do
		[ "$(grep -c 'open: native' "$T/rdmad.log")" -ge $((opens + 2)) ] && break
		sleep 0.1
	done
	sleep 1
	t0=$(date +%s)
	for s in "$@"; do
		kill -s "$s" "$pid"
	done
	wait "$job"
	rc=$?
	t1=$(date +%s)
	log "$name: exit $rc after $((t1 - t0)) s: $(tail -1 "$T/$name.err")"
	[ "$rc" = "$want" ] || fail "$name: exit $rc, want $want: $(cat "$T/$name.err")"
	[ $((t1 - t0)) -le 10 ] || fail "$name: took $((t1 - t0)) s to end"
}

interrupt sigint 130 INT
grep -q 'interrupted' "$T/sigint.err" || fail "sigint: no 'interrupted' on stderr"
grep -q 'READ' "$T/sigint.out" || fail "sigint: no report of what was done: $(cat "$T/sigint.out")"
interrupt sigterm 143 TERM
grep -q 'terminated' "$T/sigterm.err" || fail "sigterm: no 'terminated' on stderr"
interrupt twice 130 INT INT
wait_log "close: native, result aborted" 10
rdmad_alive
cli timeout 60 "$PROBE" -I "$RDMAD_CLI_ADDR" -p $port -s 4k -n 2 "$RDMAD_SRV_ADDR" \
	>"$T/after.log" 2>&1 || fail "probe after the interrupted ones: $(cat "$T/after.log")"
exit 0
