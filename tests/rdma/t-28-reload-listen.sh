#!/bin/bash
# SIGHUP re-binds listen addresses; an address no RDMA device has makes
# the reload fail as a whole, naming it, and the kept address is still
# served.  Added and removed addresses, a live session on a removed one
# and a refusal for a taken port are the host suite's t-35-reload-listen.
source "$(dirname "$0")/lib.sh"
a=7681 b=7682
rdmad_conf $b
rdmad_start
probe() { cli timeout 120 "$PROBE" -I "$RDMAD_CLI_ADDR" -t 20 "$@" "$RDMAD_SRV_ADDR"; }

# An address no device has: refused as a whole, :$b still served.
printf '[server]\nlisten = %s:%s 10.99.0.77:%s\n' "$RDMAD_SRV_ADDR" $b $a >"$T/rdmad.ini"
kill -HUP "$RDMAD_PID"
wait_log "reload refused: cannot bind 10.99.0.77:$a" 10
probe -p $b --op write -s 4k -n 2 >"$T/after.log" 2>&1 || fail "the old listener did not survive a refused reload"
rdmad_alive
exit 0
