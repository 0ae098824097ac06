#!/bin/bash
# SIGHUP re-binds listen addresses: added ones listen, removed ones stop,
# a live session on a removed address goes on to its verified end; an
# address that cannot be bound makes the reload fail as a whole.
source "$(dirname "$0")/lib.sh"
a=7681 b=7682
rdmad_conf $a
rdmad_start
probe() { cli timeout 120 "$PROBE" -I "$RDMAD_CLI_ADDR" -t 20 "$@" "$RDMAD_SRV_ADDR"; }

# A session long enough to outlive the reload.
probe -p $a --op both -s 64k -n 400 >"$T/live.log" 2>&1 &
live=$!
# Established before the reload (a fixed sleep lost the race under load:
# the probe's connect came after the port was gone).
wait_log 'open: native, ops read+write, size 65536' 60

rdmad_conf $b
kill -HUP "$RDMAD_PID"
wait_listen $b
for ((i = 0; i < 50; i++)); do
	rdma resource show cm_id | grep -qE "state LISTEN .*src-addr [^ ]*:$a( |\$)" || break
	sleep 0.1
done
rdma resource show cm_id | grep -qE "state LISTEN .*src-addr [^ ]*:$a( |\$)" && fail "still listening on :$a after the reload"
grep -q "reload: listening on $RDMAD_SRV_ADDR:$b" "$T/rdmad.log" || fail "no 'reload: listening on' in the log"
grep -q "reload: no longer listening on $RDMAD_SRV_ADDR:$a" "$T/rdmad.log" || fail "no 'no longer listening' in the log"

probe -p $b --op read -s 4k -n 2 >"$T/new.log" 2>&1 || { cat "$T/new.log" >&2; fail "probe on the new port failed"; }
probe -p $a --op read -s 4k -n 2 -t 3 >"$T/old.log" 2>&1
rc=$?
[ $rc = 4 ] || { cat "$T/old.log" >&2; fail "probe on the removed port: exit $rc, want 4 (refused)"; }
wait $live || { tail -5 "$T/live.log" >&2; fail "the live session on the removed port did not finish verified"; }

# An address no device has: refused as a whole, :$b still served.
printf '[server]\nlisten = %s:%s 10.99.0.77:%s\n' "$RDMAD_SRV_ADDR" $b $a >"$T/rdmad.ini"
kill -HUP "$RDMAD_PID"
for ((i = 0; i < 100; i++)); do
	grep -q "reload refused: cannot bind 10.99.0.77:$a" "$T/rdmad.log" && break
	sleep 0.1
done
grep -q "reload refused: cannot bind 10.99.0.77:$a" "$T/rdmad.log" || { tail -5 "$T/rdmad.log" >&2; fail "no 'reload refused: cannot bind' for an unbindable address"; }
probe -p $b --op write -s 4k -n 2 >"$T/after.log" 2>&1 || fail "the old listener did not survive a refused reload"
rdmad_alive
exit 0
