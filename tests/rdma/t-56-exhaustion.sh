#!/bin/bash
# Resource exhaustion: rdmad without CAP_IPC_LOCK and with a small
# RLIMIT_MEMLOCK cannot register large buffers.  Such a client is
# rejected ("out of resources", reason in the reject private data) and
# nothing of it is left; smaller clients before and after are served.
source "$(dirname "$0")/lib.sh"
source "$RDMAD_SOURCE_DIR/tests/hostile/lib-hostile.sh"
need probe
command -v setpriv >/dev/null || fail "setpriv (util-linux) not installed"
port=7656
rdmad_conf $port "limits.max_buffer_size = 16m"
# rdmad_start cannot wrap the command: start it here, same checks.
srv exec setpriv --bounding-set -ipc_lock --inh-caps -ipc_lock -- \
	prlimit --memlock=$((512 * 1024)) -- "$RDMAD" -c "$T/rdmad.ini" \
	>"$T/rdmad.log" 2>&1 &
RDMAD_PID=$!
wait_listen $port
rdmad_alive
grep -q 'Max locked memory *524288' "/proc/$RDMAD_PID/limits" ||
	fail "memlock limit not applied: $(grep -i locked /proc/$RDMAD_PID/limits)"
baseline

for i in 1 2 3; do
	cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p $port -t 10 -s 4m -n 1 \
		"$RDMAD_SRV_ADDR" >"$T/big.log" 2>&1 && fail "4 MiB buffer registered past memlock"
	grep -q 'out of resources\|could not allocate' "$T/big.log" ||
		fail "no resources reason printed: $(cat "$T/big.log")"
	check_after "memlock $i"
done
log "probe says: $(grep -m1 'resources\|allocate' "$T/big.log")"
grep -q 'cannot set up connection: Cannot allocate memory' "$T/rdmad.log" ||
	fail "rdmad did not log the failed registration"
# Many small ones at once still fit.
hostile_case flood 8
rss_check
exit 0
