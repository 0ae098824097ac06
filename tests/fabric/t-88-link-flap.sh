#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Link flaps under load on the server's NIC: native and rping clients on
# hosts 1 and 2 moving data to rdmad on host 3.
# (a) The cable pulled for 4 s from outside (QEMU set_link: carrier off,
#     rxe's port goes down): rdmad drops the connections of that port and
#     afterwards, without a restart, serves: three new probes from host 1
#     verify.
# (b) The netdev set down and up inside host 3 (what t-55 did on one host).
#     Measured across the wire too: afterwards rxe in Debian's 6.1 kernel
#     completes no new connection on that device, for rdmad, a fresh rdmad
#     on another port and a stock rping server alike, and `rdma link
#     delete` of it hangs in the kernel: nothing rdma_cm lets a process do
#     brings it back; the host needs a reboot.  What rdmad must do, and this
#     checks: stay up (same pid), keep answering its HTTP endpoint, not spin
#     (under 0.5 s of CPU in 5 s), and log the port going down and up.
#     Host 3 is crashed at the end so that the next test that needs it gets
#     a fresh one (fab_leave boots it again while t-89 runs on hosts 1, 2).
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 3
A3=$(fab_addr 3)
fab_rdmad_start 3 7471
pid=$(fab_sh 3 'pidof rdmad')

flap() { # flap NAME COMMAND...
	fab_spawn 1 load "\$PROBE -s 64k -D 30 -t 10 $A3"
	fab_spawn 2 load "\$PROBE --rping -p 7471 -s 4k -n 100000 -t 10 $A3"
	sleep 6
	"${@:2}"
	fab_wait 1 load 60 >/dev/null
	fab_wait 2 load 60 >/dev/null
	for k in 1 2 3; do
		t=$(fab_now)
		fab_sh 1 -t 60 "\$PROBE -s 64k -n 5 $A3" >"$T/$1-$k.out" ||
			fab_fail "$1: probe $k after the flap: $(tail -3 "$T/$1-$k.out")"
		fab_log "$1: probe $k after the flap verified in $(fab_since "$t")s"
	done
	[ "$(fab_sh 3 'pidof rdmad')" = "$pid" ] || fab_fail "$1: rdmad restarted or died"
}
cable() { fab_link 3 down; sleep 4; fab_link 3 up; }
flap cable cable

fab_spawn 1 load "\$PROBE -s 64k -D 30 -t 10 $A3"
sleep 6
# From here host 3's rxe serves no new connection: crashed at the end,
# however this test ends (its port is ACTIVE again: fab_require would take
# it for healthy).
trap 'fab_crash 3; fab_leave' EXIT
fab_sh 3 'ip link set eth0 down; sleep 2; ip link set eth0 up'
fab_log "host 3: eth0 down 2 s, up"
fab_wait 1 load 60 >/dev/null
sleep 3
[ "$(fab_sh 3 'pidof rdmad')" = "$pid" ] || fab_fail "netdev flap: rdmad restarted or died"
fab_sh 3 "\$RDMADCTL status" >"$T/status.out" || fab_fail "netdev flap: rdmadctl status: $(cat "$T/status.out")"
cpu=$(fab_sh 3 -t 30 'p=$(pidof rdmad); a=$(awk "{ print \$14 + \$15 }" /proc/$p/stat); sleep 5
b=$(awk "{ print \$14 + \$15 }" /proc/$p/stat); echo $((b - a))')
fab_log "netdev flap: rdmad alive (pid $pid), status answers, $cpu ticks of CPU in 5 s"
[ "$cpu" -lt 50 ] || fab_fail "netdev flap: rdmad used $cpu ticks (1/100 s) of CPU in 5 s idle: spinning"
fab_sh 3 'grep -E "port 1 down|port up" $T/rdmad.log' >"$T/ports.out"
[ "$(grep -c 'port 1 down' "$T/ports.out")" = 2 ] && [ "$(grep -c 'port up' "$T/ports.out")" = 2 ] ||
	fab_fail "rdmad did not log both flaps' port down and up: $(cat "$T/ports.out")"
fab_sh 1 -t 60 "\$PROBE -s 64 -n 1 -t 5 $A3" >"$T/after-netdev.out"
fab_log "netdev flap: a new probe afterwards: exit $? ($(tail -1 "$T/after-netdev.out"))"
