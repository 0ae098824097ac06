# shellcheck shell=bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/fabric/lib.sh - the fabric: several hosts on one virtual wire (or
# in racks), and faults on it.  Sourced by tests/fabric/fabric (which
# builds the wire and runs the suite) and by every fabric test (t-8*.sh,
# t-9*.sh), which run on this machine, outside the guests, so that they
# can do to a host what happens to real ones: pull its cable, crash it,
# freeze it.
#
# The wire: one Linux bridge with a tap port per host, no uplink, no
# address and IPv6 off on the bridge and its ports, so nothing on it can
# reach this machine's real network or be reached from it.  Each host is
# a QEMU guest (TCG, one vCPU) booting Debian's kernel with this
# machine's / shared read-only under a tmpfs overlay (as tests/testbed),
# with a virtio-net NIC (eth0) on its tap, the address 10.98.0.(10+I)/24
# and an rxe device (rxe0) on eth0.  Packets between hosts cross the
# bridge: delay, loss and a pulled cable apply to them.  A second NIC
# (eth1, 10.99.0.(10+I)/24, no RDMA) sits on the management segment, a
# bridge of its own (rdfPIDm) that no fault touches: the frontend network
# a real fleet scrapes its exporters over (t-99's Prometheus shards).
# The monitoring host (rdfPIDp) is a network namespace of this machine on
# the management segment (10.99.0.2) and the wire (10.98.0.2): Prometheus
# and the Alertmanager run there, natively (fab_mon, at the end).
#
# Racks (fabric --racks R, R >= 2): the hosts split evenly in R racks in
# order, one bridge a rack (rdfPIDbR), the racks joined by an uplink: for
# R = 2 one veth pair, end rdfPIDu1 on rack 1's bridge and rdfPIDu2 on
# rack 2's; for R > 2 a spine bridge (rdfPIDs) and a veth pair a rack
# (rdfPIDuR on the rack, rdfPIDvR on the spine).  Still one L2 segment
# (one subnet, rxe needs no route); the same isolation as the single
# wire.  $F/racks holds R, $F/rack host I's rack on line I, $F/uplinks
# rack R's uplink end on line R (empty with one rack).
#
# Rails (fabric --rails 2): a third NIC a host (eth2, on tap rdfPIDrI)
# on rail 1's wire, a bridge of its own (rdfPIDr: one flat wire whatever
# the racks, isolated as the others), the address 10.97.0.(10+I)/24 and
# an rxe device (rxe1) on it.  Rail 0 is eth0/rxe0/10.98.0.0/24.  $F/rails
# holds how many.  Faults other than fab_link's cable are rail 0's.
#
# For a test:
#   fab_require N          hosts 1..N up, healthy and clean (no faults, no
#                          leftover processes); boots or reboots as needed
#   fab_addr I [RAIL]      host I's address (on RAIL, default 0)
#   fab_rails              the rails of the fabric (1 or 2)
#   fab_require_rails R    fail (never skip) unless it has >= R rails
#   fab_mgmt_addr I        host I's address on the management segment
#                          (eth1: never cut, netem'd or uplinked; for
#                          Prometheus, Alertmanager, scrapes)
#   fab_sh I [-t SECS] CMD run the shell command CMD on host I, print its
#                          output, return its status (124: not done by the
#                          deadline, default 120 s; 125: the host is gone)
#   fab_spawn I NAME CMD   start CMD on host I in the background
#   fab_mon [-t SECS] CMD...  run CMD on the monitoring host (this
#                          machine, its own network namespace)
#   fab_wait I NAME [SECS] wait for it: output and status as fab_sh
#   fab_kill I NAME        kill it (its whole process group)
# Faults, each undone by fab_require (and by the next test's start):
#   fab_netem I DIR SPEC   tc netem SPEC ("loss 3%", "delay 5ms 1ms",
#                          "corrupt 1%", "reorder 25% 50% delay 2ms",
#                          "rate 100mbit") on host I's NIC: DIR "in" (the
#                          packets it receives), "out" (those it sends)
#                          or "both"
#   fab_tbf I DIR SPEC     tc tbf SPEC ("rate 8mbit burst 16kb latency
#                          400ms"): a rate limit, the same way
#   fab_netem_clear I      remove both (either kind)
#   fab_link I down|up [RAIL]  QEMU's set_link on host I's NIC of RAIL
#                          (default 0): the cable, seen from outside
#   fab_crash I            kill host I's QEMU (a crash: no goodbye)
#   fab_hang I, fab_resume I   stop / continue host I's QEMU (gray failure)
#   fab_mtu I MTU          eth0's MTU on host I (the wire carries 9000)
#   fab_alive I            true while host I's QEMU runs (stopped or not)
# Racks (each fault undone by fab_require too):
#   fab_racks              how many racks (1: one wire)
#   fab_rack I             host I's rack (1..fab_racks)
#   fab_require_racks R    fail (never skip) unless the fabric has >= R racks
#   fab_uplink R down|up   rack R's uplink end set down / up: a cut cable
#                          between rack R and the others (this machine)
#   fab_uplink_netem R SPEC   netem SPEC on every packet that crosses rack
#                          R's uplink, both ways (see below for where)
#   fab_uplink_netem_clear R  remove it
# The rack mesh (t-97, t-98; below the mesh helpers): fab_inventory,
# fab_rack_mesh_start, fab_peer_rows, fab_rack_expected (select-oracle),
# fab_rack_peers_match, fab_rack_wait_up; fab_clock_offset, fab_offsets,
# fab_at and fab_log_delay date a host's log line from a moment taken here.
# Also: fab_log, fab_fail, $T (scratch folder of this test, on this
# machine), $RDMAD (rdmad), $PROBE (rdma-probe), fab_rdmad_start,
# fab_res_counts (qp/mr/cm_id/fd counts of a process on a host).
# The helpers every suite shares (tests/lib.sh: log, fail, since,
# prom_sum, json_get, ini_text, cm_listening, rdma_res_counts...) are
# sourced here, and by every job on a host: a job may call them.

set -u
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${RDMAD_FABRIC_DIR:?not inside the fabric (run through tests/fabric/fabric)}"
: "${RDMAD_BUILD_DIR:?RDMAD_BUILD_DIR not set}"
: "${RDMAD_SOURCE_DIR:?RDMAD_SOURCE_DIR not set}"
F=$RDMAD_FABRIC_DIR
T=${RDMAD_TEST_TMP:-$(mktemp -d)}
mkdir -p "$T"
RDMAD=$RDMAD_BUILD_DIR/src/daemon/rdmad
PROBE=$RDMAD_BUILD_DIR/src/probe/rdma-probe
RDMADCTL=$RDMAD_BUILD_DIR/src/ctl/rdmadctl
fab_seq=0

# A test's notes carry the seconds since it started (its lib.sh sourced),
# so its log shows where the time went: "# 12.3s host 3: cable down".
# Bash arithmetic on EPOCHREALTIME: no process.
FAB_T0=${EPOCHREALTIME/[.,]/}
log() {
	local ms=$(((${EPOCHREALTIME/[.,]/} - FAB_T0) / 100000))
	printf '# %d.%ds %s\n' $((ms / 10)) $((ms % 10)) "$*" >&2
}

# The fabric's names for tests/lib.sh's log, fail and since.
fab_log() { log "$@"; }
fab_fail() { fail "$@"; }
fab_now() { date +%s.%N; }
fab_since() { since "$@"; }

fab_addr() {
	case ${2:-0} in
	0) echo "10.98.0.$((10 + $1))" ;;
	1) echo "10.97.0.$((10 + $1))" ;;
	*) fab_fail "fab_addr: no rail '$2' (0 or 1)" ;;
	esac
}
fab_rails() { cat "$F/rails" 2>/dev/null || echo 1; }
fab_require_rails() {
	[ "$(fab_rails)" -ge "$1" ] ||
		fab_fail "this test needs a fabric of at least $1 rails; this one has $(fab_rails) (tests/fabric/fabric --rails $1)"
}
# fab_nic RAIL: QEMU's netdev id of a host's NIC on RAIL (n1 is the
# management NIC's).
fab_nic() { case $1 in 0) echo n0 ;; 1) echo n2 ;; *) fab_fail "fab_nic: no rail '$1'" ;; esac; }
fab_mgmt_addr() { echo "10.99.0.$((10 + $1))"; }
fab_dir() { echo "$F/h$1"; }
fab_tap() { echo "$(cat "$F/bridge")t$1"; }
fab_mgmt_tap() { echo "$(cat "$F/bridge")m$1"; }
fab_rail_tap() { echo "$(cat "$F/bridge")r$1"; }
# The QEMU of host I, found by its tap (one QEMU per tap, whoever started it).
fab_pid() { pgrep -f -- "ifname=$(fab_tap "$1")," | head -1; }
fab_state() { # R, S, T (stopped), Z (a zombie nobody reaped: dead), or empty
	local p
	p=$(fab_pid "$1") && [ -n "$p" ] && awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null
}
fab_alive() {
	local s
	s=$(fab_state "$1") && [ -n "$s" ] && [ "$s" != Z ]
}
fab_stopped() { [ "$(fab_state "$1")" = T ]; }

# ---- boot ----------------------------------------------------------------

# fab_boot I: start host I's QEMU, detached from the test's process group
# (a host outlives the test that booted it).  fab_boot_wait I waits for
# its agent.
fab_boot() {
	local i=$1 d rail1=()
	d=$(fab_dir "$i")
	fab_alive "$i" && fab_crash "$i"
	[ "$(fab_rails)" = 1 ] || rail1=(
		-netdev "tap,id=n2,ifname=$(fab_rail_tap "$i"),script=no,downscript=no"
		-device "virtio-net-pci,netdev=n2,mac=52:54:00:fa:b2:$(printf %02x "$i")")
	rm -rf "$d"
	mkdir -p "$d/shared"
	cp "$RDMAD_SOURCE_DIR/tests/fabric/fabric-agent" "$d/shared/guest-init"
	{
		printf 'export FAB_HOST=%q FAB_ADDR=%q FAB_MGMT_ADDR=%q FAB_MTU=1500\n' \
			"$i" "$(fab_addr "$i")" "$(fab_mgmt_addr "$i")"
		printf 'export FAB_N=%q\n' "$(cat "$F/n")"
		[ "$(fab_rails)" = 1 ] || printf 'export FAB_ADDR1=%q\n' "$(fab_addr "$i" 1)"
		printf 'export RDMAD_BUILD_DIR=%q RDMAD_SOURCE_DIR=%q PATH=%q\n' \
			"$RDMAD_BUILD_DIR" "$RDMAD_SOURCE_DIR" "$PATH"
	} >"$d/shared/host.env"
	# shellcheck disable=SC2046
	setsid qemu-system-x86_64 $(cat "$F/accel") -smp 1 -m "$(cat "$F/memory")" \
		-no-reboot -nic none -display none \
		-netdev "tap,id=n0,ifname=$(fab_tap "$i"),script=no,downscript=no" \
		-device "virtio-net-pci,netdev=n0,mac=52:54:00:fa:b0:$(printf %02x "$i")" \
		-netdev "tap,id=n1,ifname=$(fab_mgmt_tap "$i"),script=no,downscript=no" \
		-device "virtio-net-pci,netdev=n1,mac=52:54:00:fa:b1:$(printf %02x "$i")" \
		"${rail1[@]}" \
		-monitor "unix:$d/monitor.sock,server=on,wait=off" \
		-serial "file:$d/console.log" \
		-kernel "$(cat "$F/kernel")" -initrd "$(cat "$F/initrd")" \
		-append "console=ttyS0 quiet panic=-1 $(cat "$F/clock-args") no_timer_check rdmad_init=bash" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$d/shared,mount_tag=results,security_model=none,multidevs=remap" \
		</dev/null >"$d/qemu.log" 2>&1 &
	# Until it has exec'd, the child is not yet a QEMU that fab_pid can
	# find: the boot is watched by this pid.
	echo $! >"$d/boot.pid"
	disown $!	# no "Killed" notice from bash when a test crashes it
	date +%s.%N >"$d/boot-start"
}

# fab_detached I: until host I's new QEMU leads a session of its own (the
# setsid of fab_boot done): the test's process group, killed once it
# ends, no longer holds it.  2 s at most.
fab_detached() {
	local p k s f
	p=$(cat "$(fab_dir "$1")/boot.pid")
	for ((k = 0; k < 40; k++)); do
		read -r s <"/proc/$p/stat" 2>/dev/null || return 0
		read -r -a f <<<"${s##*) }"	# state ppid pgrp session...
		[ "${f[3]}" = "$p" ] && return 0
		sleep 0.05
	done
}

fab_boot_wait() {
	local i=$1 secs=${2:-180} d k
	d=$(fab_dir "$i")
	for ((k = 0; k < secs * 10; k++)); do
		[ -f "$d/shared/ready" ] && {
			fab_log "host $i ($(fab_addr "$i")) up in $(awk -v a="$(cat "$d/boot-start")" \
				-v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')s"
			return 0
		}
		[ -f "$d/shared/failed" ] && fab_fail "host $i failed to start: $(cat "$d/shared/failed")"
		[ -n "$(awk '$3 != "Z" { print $3 }' "/proc/$(cat "$d/boot.pid")/stat" 2>/dev/null)" ] ||
			fab_fail "host $i's QEMU ended while booting: $(tail -3 "$d/qemu.log") $(tail -5 "$d/console.log")"
		sleep 0.1
	done
	fab_fail "host $i not up after ${secs}s; console: $(tail -5 "$d/console.log")"
}

# ---- jobs ----------------------------------------------------------------

# fab_job I NAME CMD: hand CMD to host I's agent as job NAME.
fab_job() {
	local i=$1 name=$2 d
	d=$(fab_dir "$i")/shared
	{
		# the agent read both once: a job is a fork of it (fabric-agent)
		echo '[ -n "${FAB_HOST:-}" ] || source /testbed/host.env'
		printf 'declare -F prom_sum >/dev/null || source %q\n' "$RDMAD_SOURCE_DIR/tests/lib.sh"
		# no mkdir when the folder is there: in a TCG guest each process
		# started costs ~0.1 s of CPU, and a test hands out hundreds of jobs
		printf 'export T=/tmp/fabric-test\n[ -d "$T" ] || mkdir -p "$T"\ncd %q || exit 2\n' "$RDMAD_SOURCE_DIR"
		printf 'RDMAD=%q PROBE=%q RDMADCTL=%q\n' "$RDMAD" "$PROBE" "$RDMADCTL"
		printf '%s\n' "$3"
	} >"$d/jobs/.$name.tmp" || return 125
	# A job of this name before: its status, output and mark gone (the
	# agent takes a job whose out/NAME.pid is missing).
	rm -f "$d/out/$name.rc" "$d/out/$name.out" "$d/out/$name.pid"
	mv "$d/jobs/.$name.tmp" "$d/jobs/$name.sh"
}

fab_spawn() { fab_job "$1" "$2" "$3"; }

fab_wait() {
	local i=$1 name=$2 secs=${3:-120} d k rc
	d=$(fab_dir "$i")/shared
	for ((k = 0; k < secs * 20; k++)); do
		# the status is written in one write: read once it is not empty
		if [ -f "$d/out/$name.rc" ] && read -r rc <"$d/out/$name.rc" && [ -n "$rc" ]; then
			mv -f "$d/jobs/$name.sh" "$d/run/$name.sh" 2>/dev/null
			cat "$d/out/$name.out" 2>/dev/null
			return "$rc"
		fi
		# pgrep reads every process: once a second is enough.
		if [ $((k % 20)) = 19 ] && ! fab_alive "$i"; then
			cat "$d/out/$name.out" 2>/dev/null
			return 125
		fi
		sleep 0.05
	done
	fab_kill "$i" "$name"
	cat "$d/out/$name.out" 2>/dev/null
	return 124
}

fab_kill() { : >"$(fab_dir "$1")/shared/jobs/$2.kill"; }

fab_sh() {
	local i=$1 secs=120 name
	shift
	if [ "$1" = -t ]; then secs=$2; shift 2; fi
	fab_seq=$((fab_seq + 1))
	# BASHPID: jobs handed from subshells running at once differ.
	name=sh$BASHPID-$fab_seq
	fab_job "$i" "$name" "$1" || return 125
	fab_wait "$i" "$name" "$secs"
}

# ---- faults ----------------------------------------------------------------

fab_monitor() { # fab_monitor I HMP-COMMAND
	python3 - "$(fab_dir "$1")/monitor.sock" "$2" <<'EOF'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
s.connect(sys.argv[1])
def upto_prompt():
    buf = b''
    while not buf.endswith(b'(qemu) '):
        chunk = s.recv(4096)
        if not chunk:
            break
        buf += chunk
    return buf
upto_prompt()
s.sendall(sys.argv[2].encode() + b'\n')
out = upto_prompt().decode(errors='replace')
lines = [l for l in out.replace('\r', '').split('\n')[1:] if l and not l.startswith('(qemu)')]
print('\n'.join(lines), end='')
EOF
}

fab_link() {
	local on=on rail=${3:-0} nic
	[ "$2" = down ] && on=off
	nic=$(fab_nic "$rail")
	[ "$rail" -lt "$(fab_rails)" ] || fab_fail "fab_link: no rail $rail on this fabric ($(fab_rails) rails)"
	# A mark while the cable may be out (set before, removed once it is
	# back): fab_clean and fab_leave put back only the cables marked, not
	# every cable of every host at every test's start and end (a python3
	# a cable: 0.6 s each under CI's load, eight in a row in fab_leave).
	[ "$on" = on ] || : >"$(fab_dir "$1")/cable-out-$nic"
	fab_monitor "$1" "set_link $nic $on" >/dev/null || fab_fail "QEMU monitor of host $1: set_link $nic failed"
	[ "$on" = off ] || rm -f "$(fab_dir "$1")/cable-out-$nic"
	if [ "$rail" = 0 ]; then
		fab_log "host $1: cable $2"
	else
		fab_log "host $1: rail $rail's cable $2"
	fi
}

fab_netem() { fab_qdisc "$1" "$2" "netem $3"; }
fab_tbf() { fab_qdisc "$1" "$2" "tbf $3"; }

# fab_qdisc I DIR QDISC: the root qdisc QDISC ("netem loss 2%", "tbf rate
# 8mbit burst 16kb latency 400ms") on host I's link, DIR in, out or both.
fab_qdisc() {
	local i=$1 dir=$2 spec=$3 cmd=""
	# Packets to the host pass its eth0's ingress, redirected through ifb0
	# (set up by the agent) where a qdisc can hold them: this machine's own
	# kernel may have no netem for the tap side (CI's has none).
	case $dir in
	in) cmd="tc qdisc replace dev ifb0 root $spec" ;;
	out) cmd="tc qdisc replace dev eth0 root $spec" ;;
	both) cmd="tc qdisc replace dev eth0 root $spec && tc qdisc replace dev ifb0 root $spec" ;;
	*) fab_fail "fab_qdisc: direction in, out or both, not '$dir'" ;;
	esac
	: >"$(fab_dir "$i")/netem"	# fab_clean removes it (fab_netem_clear)
	fab_sh "$i" -t 30 "$cmd" || fab_fail "tc qdisc $spec ($dir) on host $i failed"
	fab_log "host $i: $spec ($dir)"
}

fab_netem_clear() {
	fab_sh "$1" -t 30 "tc qdisc del dev eth0 root 2>/dev/null; tc qdisc del dev ifb0 root 2>/dev/null; true" >/dev/null &&
		rm -f "$(fab_dir "$1")/netem"
}

fab_crash() {
	local p
	p=$(fab_pid "$1")
	[ -n "$p" ] || return 0
	kill -KILL "$p" 2>/dev/null
	while fab_alive "$1"; do sleep 0.05; done
	fab_log "host $1: crashed (QEMU killed)"
}

# fab_realtime PRIO|off HOST...: every thread of each host's QEMU in the
# build host's real-time class at PRIO (SCHED_RR: it runs whenever it is
# runnable, ahead of all normal work there and of lower PRIOs), or back
# in the normal class.  Under TCG the guests share the build host's
# cores, so its load (other suites, builds, another guest's hog) delays
# every guest's clock and loop, which a real fabric's hosts never see.
# The kernel keeps 5 % of each core for the normal class
# (sched_rt_runtime_us).  1 when a host has no QEMU.
fab_realtime() {
	local mode=$1 i t p
	shift
	for i in "$@"; do
		p=$(fab_pid "$i") && [ -n "$p" ] || { fab_log "host $i: no QEMU to reschedule"; return 1; }
		for t in /proc/"$p"/task/*; do
			if [ "$mode" != off ]; then
				chrt -r -p "$mode" "${t##*/}"
			else
				chrt -o -p 0 "${t##*/}"
			fi >/dev/null 2>&1 || [ ! -e "$t" ] ||
				{ fab_log "host $i: cannot change the class of QEMU thread ${t##*/}"; return 1; }
		done
		fab_log "host $i: its QEMU in the build host's $([ "$mode" != off ] && echo "real-time class ($mode)" || echo normal class)"
	done
}

# fab_cables_in I: every cable of host I that fab_link pulled put back
# (its mark removed once QEMU took it); 1 if one stays out.  A new QEMU
# (fab_boot: the host's folder made anew, no mark) has every cable in.
fab_cables_in() {
	local m rc=0
	for m in "$(fab_dir "$1")"/cable-out-*; do
		[ -e "$m" ] || continue
		if fab_monitor "$1" "set_link ${m##*/cable-out-} on" >/dev/null 2>&1; then
			rm -f "$m"
		else
			rc=1
		fi
	done
	return "$rc"
}

fab_hang() { kill -STOP "$(fab_pid "$1")" && fab_log "host $1: hung (QEMU stopped)"; }
fab_resume() { kill -CONT "$(fab_pid "$1")" && fab_log "host $1: resumed"; }

fab_mtu() {
	fab_sh "$1" -t 30 "ip link set eth0 mtu $2" || fab_fail "host $1: cannot set MTU $2"
	fab_log "host $1: eth0 MTU $2"
}

# ---- racks -----------------------------------------------------------------

fab_racks() { cat "$F/racks" 2>/dev/null || echo 1; }
fab_rack() {
	local r
	r=$(sed -n "${1}p" "$F/rack" 2>/dev/null)
	echo "${r:-1}"
}

# fab_require_racks R: a rack test on a fabric of fewer racks fails (in
# CI a test never skips): the run was started without --racks.
fab_require_racks() {
	[ "$(fab_racks)" -ge "$1" ] ||
		fab_fail "this test needs a fabric of at least $1 racks; this one has $(fab_racks) (tests/fabric/fabric --racks $1)"
}

# fab_uplink_dev R: rack R's uplink end (a veth on rack R's bridge).
fab_uplink_dev() {
	local d
	d=$(sed -n "${1}p" "$F/uplinks" 2>/dev/null)
	[ -n "$d" ] || fab_fail "rack $1 has no uplink (the fabric has $(fab_racks) racks)"
	echo "$d"
}

fab_uplink() {
	local d
	d=$(fab_uplink_dev "$1")
	case $2 in
	down | up) ip link set "$d" "$2" || fab_fail "cannot set the uplink $d $2" ;;
	*) fab_fail "fab_uplink: down or up, not '$2'" ;;
	esac
	fab_log "rack $1: uplink $d $2"
}

# Every uplink end up (fab_require, fab_leave).
fab_uplinks_up() {
	local d
	[ -f "$F/uplinks" ] || return 0
	while read -r d; do
		[ -n "$d" ] && ip link set "$d" up 2>/dev/null
	done <"$F/uplinks"
	return 0
}

# fab_uplink_netem R SPEC: netem SPEC on the packets that cross rack R's
# uplink, each way.  Not on the veth: this machine's kernel may have no
# netem (CI's has none, nor tc's gact), so it is put where fab_netem puts
# it, on rack R's hosts, on their packets to (eth0) and from (ifb0) the
# hosts of other racks only: a prio qdisc whose second band holds the
# netem, u32 filters by address sending the cross-rack packets there.
# What crosses the uplink meets SPEC once each way; the traffic inside
# every rack, none.  fab_require (fab_clean) removes it.
fab_uplink_netem() {
	local r=$1 spec=$2 i j dst="" src="" cmd d
	for ((j = 1; j <= $(cat "$F/n"); j++)); do
		[ "$(fab_rack "$j")" = "$r" ] && continue
		dst+="tc filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip dst $(fab_addr "$j")/32 flowid 1:2 && "
		src+="tc filter add dev ifb0 parent 1: protocol ip prio 1 u32 match ip src $(fab_addr "$j")/32 flowid 1:2 && "
	done
	[ -n "$dst" ] || fab_fail "fab_uplink_netem: no host outside rack $r"
	cmd="modprobe -a sch_prio sch_netem cls_u32 2>/dev/null; "
	for d in eth0 ifb0; do
		cmd+="tc qdisc replace dev $d root handle 1: prio bands 2 priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 &&
tc qdisc add dev $d parent 1:2 handle 20: netem $spec && "
	done
	cmd+="${dst}${src}true"
	for ((i = 1; i <= $(cat "$F/n"); i++)); do
		[ "$(fab_rack "$i")" = "$r" ] || continue
		: >"$(fab_dir "$i")/netem"
		fab_sh "$i" -t 30 "$cmd" || fab_fail "host $i: netem $spec on the cross-rack packets failed"
	done
	fab_log "rack $r: uplink netem $spec (each way)"
}

fab_uplink_netem_clear() {
	local i
	for ((i = 1; i <= $(cat "$F/n"); i++)); do
		[ "$(fab_rack "$i")" = "$1" ] && fab_netem_clear "$i"
	done
	fab_log "rack $1: uplink netem cleared"
}

# ---- a clean fabric for each test ----------------------------------------

# The state a test may expect at its start: every host up and answering,
# no netem, cable in, MTU 1500, nothing left of earlier tests running.
# One job of few processes (in a TCG guest each one costs ~0.1 s of CPU:
# one pkill for every name; tc only when fab_netem or fab_uplink_netem
# marked the host (its folder's "netem", until a clear or this removes
# its qdiscs); ip only when a NIC is not up at MTU 1500, read from sysfs;
# the port's state and the uptime read by bash).
fab_clean() {
	local i=$1 out up rxe1=: tc=: mark
	mark=$(fab_dir "$i")/netem
	fab_cables_in "$i" || return 1
	[ "$(fab_rails)" = 2 ] && rxe1='{ nic_up eth2 || ip link set eth2 up; } && active rxe1'
	[ -e "$mark" ] && tc='printf "qdisc del dev eth0 root\nqdisc del dev ifb0 root\n" | tc -force -batch - 2>/dev/null'
	out=$(fab_sh "$i" -t 60 'pids=$(pgrep -x "rdmad|rdma-probe|rdmad-hostile|rping|tcpdump|prometheus|ib_(write|read|send|atomic)_(bw|lat)" 2>/dev/null)
		[ -z "$pids" ] || kill -KILL $pids
		# A killed process is gone once the kernel has torn down its
		# QPs and cm_ids.  One stuck there (state D) keeps its listener
		# and can wedge the port'"'"'s CM for every later process: the host
		# is unhealthy (seen in CI: a stale LISTEN on rdmad'"'"'s port made
		# every later rdmad on that host look started).
		left() {
			local p s
			for p in $pids; do
				# (2>/dev/null first: a process gone meanwhile is
				# no message)
				read -r _ _ s _ 2>/dev/null </proc/$p/stat && [ "$s" != Z ] && return 0
			done
			return 1
		}
		while left && ((SECONDS < 30)); do sleep 0.1; done
		if left; then
			echo "processes killed 30 s ago still there:"
			ps -o pid,stat,etime,wchan:32,args -p "$(echo $pids)"
			for p in $pids; do echo "$p:"; cat /proc/$p/stack 2>/dev/null; done
			echo "kernel log, last lines:"; dmesg | tail -25
			exit 1
		fi
		'"$tc"'
		nic_up() {
			local m o
			read -r o </sys/class/net/$1/operstate && [ "$o" = up ] &&
				{ [ -z "${2:-}" ] || { read -r m </sys/class/net/$1/mtu && [ "$m" = "$2" ]; }; }
		}
		nic_up eth0 1500 || ip link set eth0 mtu 1500 up
		[ ! -e /tmp/fabric-test ] || rm -rf /tmp/fabric-test
		active() {
			local k s
			for ((k = 0; k < 50; k++)); do
				read -r s _ </sys/class/infiniband/$1/ports/1/state && [ "$s" = 4: ] && return 0
				sleep 0.1
			done
			return 1
		}
		active rxe0 && '"$rxe1"' && read -r up _ </proc/uptime && echo "$up"') || {
		fab_log "host $i: not clean: ${out:-no answer}"
		return 1
	}
	# the uptime is the last line; anything before it is said, not
	# taken for the uptime (CI-D: a message there made four hosts'
	# clocks look off and had them rebooted)
	up=${out##*$'\n'}
	[ "$out" = "$up" ] || fab_log "host $i: its clean said: ${out%$'\n'*}"
	rm -f "$mark"
	fab_clock_sane "$i" "$up"
}

# fab_clock_sane I UPTIME: host I's clock keeps time: its uptime is not far
# from the time since its QEMU started here.  Under TCG a guest that
# calibrated its TSC while this machine was busy may run its clock ~100x
# fast (seen in CI: uptime 17 h 51 m 11 minutes after boot; every timer
# fired 100x too often, its rdmad and softirqs ate the vCPU and tests
# failed for want of CPU): such a host is unhealthy (rebooted).
fab_clock_sane() {
	local i=$1 up=$2 since
	since=$(awk -v a="$(cat "$(fab_dir "$i")/boot-start")" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
	awk -v u="$up" -v s="$since" 'BEGIN { exit !(u != "" && u <= s * 1.5 + 30 && u >= s * 0.5 - 60) }' && return 0
	fab_log "host $i: its clock says up ${up}s, QEMU started ${since}s ago: a guest clock off"
	return 1
}

fab_require() {
	local n=$1 i boot=() t0
	t0=$(now_ms)
	[ "$n" -le "$(cat "$F/n")" ] || fab_fail "test wants $n hosts, the fabric has $(cat "$F/n")"
	local -a cleaning=()
	for ((i = 1; i <= n; i++)); do
		fab_stopped "$i" && kill -CONT "$(fab_pid "$i")"
		# Still booting (the suite's first test, a host an earlier test
		# crashed: fab_leave): wait for it.
		fab_alive "$i" && [ ! -f "$(fab_dir "$i")/shared/ready" ] && fab_boot_wait "$i"
	done
	# The hosts cleaned at once, each its own job.
	for ((i = 1; i <= n; i++)); do
		{ fab_alive "$i" && fab_clean "$i"; } &
		cleaning[i]=$!
	done
	for ((i = 1; i <= n; i++)); do
		wait "${cleaning[i]}" && continue
		fab_log "host $i: dead or unhealthy; rebooting it"
		fab_boot "$i"
		boot+=("$i")
	done
	for i in "${boot[@]}"; do fab_boot_wait "$i"; done
	# The uplinks' netem lives on the hosts: fab_clean removed it.
	fab_uplinks_up
	# What a test killed at its deadline left on the monitoring host.
	fab_mon_clean
	# Leave the fabric as found for the next test, whatever this one did.
	trap fab_leave EXIT
	t0=$(($(now_ms) - t0))
	fab_log "hosts 1-$n ready in $((t0 / 1000)).$((t0 % 1000 / 100))s"
}

# fab_leave: at a test's end, whatever it did: stopped hosts continued,
# cables in, uplinks up, the monitoring host emptied; a host the test
# crashed is booted again at once, in the background (its QEMU outlives
# the test), so that the next tests, those that do not need it, run while
# it boots and the first that does waits in fab_require for the rest.
fab_leave() {
	local i
	for ((i = 1; i <= $(cat "$F/n"); i++)); do
		fab_stopped "$i" && kill -CONT "$(fab_pid "$i")"
		if ! fab_alive "$i"; then
			fab_log "host $i: down at the test's end; booting it"
			fab_boot "$i"
			fab_detached "$i"
			continue
		fi
		fab_cables_in "$i"
	done
	fab_uplinks_up
	fab_mon_clean
}

# ---- rdmad on a host -------------------------------------------------------

# fab_rdmad_start I PORT [LINE...]: rdmad on host I listening on its
# address at PORT (with FAB_MESH_RAILS=2: on its address of each rail),
# HTTP on 127.0.0.1:9470, config lines "section.key = value" as
# tests/rdma/lib.sh's rdmad_conf; log in /tmp/fabric-test/rdmad.log.
# Returns once it listens for rdma_cm on PORT (one job: it starts rdmad
# and waits for its listener, 30 s at most); fails the test otherwise.
fab_rdmad_start() {
	local i=$1 port=$2 conf r listen=""
	shift 2
	for ((r = 0; r < ${FAB_MESH_RAILS:-1}; r++)); do listen+="${listen:+ }$(fab_addr "$i" "$r"):$port"; done
	conf=$(ini_text "$listen" "$@")
	fab_sh "$i" -t 60 "cat >\$T/rdmad.ini <<'EOF'
$conf
EOF
setsid \$RDMAD -c \$T/rdmad.ini >\$T/rdmad.log 2>&1 </dev/null &
p=\$!
while ((SECONDS < 30)); do
	cm_listening $port 1 \$p && exit 0
	kill -0 \$p || { echo 'rdmad did not start:'; cat \$T/rdmad.log; exit 1; }
done
echo 'rdmad does not listen on port $port after 30 s:'; tail -5 \$T/rdmad.log; exit 1" ||
		fab_fail "rdmad on host $i did not start listening on port $port (its log above)"
}

# fab_res_counts I PROC: "qp=N mr=N cm_id=N fd=N" of the process named
# PROC on host I (rdma_res_counts there).
fab_res_counts() {
	fab_sh "$1" -t 30 "p=\$(pidof -s $2) || { echo 'no $2'; exit 1; }
rdma_res_counts \$p qp mr cm_id fd"
}

# fab_ms NS: nanoseconds as milliseconds with one decimal.
fab_ms() { awk -v n="$1" 'BEGIN { printf "%.1f", n / 1e6 }'; }

# fab_listening I PORT [SECS]: true once something on host I listens on
# rdma_cm port PORT (default: wait up to 30 s).
fab_listening() {
	fab_sh "$1" -t $((${3:-30} + 10)) "cm_listening $2 ${3:-30}"
}

# fab_wait_listen I PORT [SECS]: the same, or the test fails.
fab_wait_listen() {
	fab_listening "$@" || fab_fail "nothing listens on rdma_cm port $2 of host $1"
}

# fab_reap_wait I T0 SECS: wait until rdmad on host I logged a close line;
# print it and the seconds since T0 (fab_now) it took.  Fails after SECS.
fab_reap_wait() {
	local line
	line=$(fab_sh "$1" -t $(($3 + 20)) "log_has ' close: ' $3 \$T/rdmad.log &&
grep ' close: ' \$T/rdmad.log | tail -1") || fab_fail "rdmad on host $1 did not close the connection within $3 s"
	echo "$(fab_since "$2") ${line#* }"
}

# fab_counts_back I WANT [SECS]: until rdmad's fab_res_counts on host I
# equal WANT (taken before the session; SECS default 30), else fail
# naming each count.
fab_counts_back() {
	local out
	out=$(fab_sh "$1" -t $((${3:-30} + 30)) "wait_res_counts \$(pidof -s rdmad) '$2' ${3:-30} 2>&1") ||
		fab_fail "rdmad on host $1, a leak since before the session: $out"
}

# fab_probe_connected I: wait until rdmad on host I logged an open line.
fab_probe_connected() {
	fab_sh "$1" -t 60 'log_has " open: " 40 $T/rdmad.log' ||
		fab_fail "no client connected to rdmad on host $1"
}

# fab_expect_reap I T0 BASE WHAT: rdmad on host I must close the dead
# client's connection by its liveness check (result peer-unreachable)
# within 30 s of T0 (fab_now), and its resources return to BASE
# (fab_res_counts before the session).  WHAT names the fault in the log.
fab_expect_reap() {
	local reap
	reap=$(fab_reap_wait "$1" "$2" 60)
	fab_log "$4: rdmad reaped after ${reap%% *}s: ${reap#* }"
	[[ $reap == *"result peer-unreachable"* ]] || fab_fail "$4: close result is not peer-unreachable: $reap"
	awk -v t="${reap%% *}" 'BEGIN { exit !(t <= 30) }' || fab_fail "$4: reaped after ${reap%% *}s, more than 30 s"
	fab_counts_back "$1" "$3"
	fab_log "$4: rdmad's resources back to the baseline: $3"
}

# fab_client_fault N WHAT FAULT...: hosts 1..N, rdmad on host 1
# ([timeouts] liveness 2 s, session 120 s; A1 its address, base its
# fab_res_counts), a 64 KiB rdma-probe -D 120 -t 10 --json from host 2
# (job "probe"); 2 s into the transfer the command FAULT... hits host 2
# (t0: when), and rdmad must reap the client as fab_expect_reap says.
fab_client_fault() {
	local n=$1 what=$2
	shift 2
	fab_require "$n"
	A1=$(fab_addr 1)
	fab_rdmad_start 1 7471 "timeouts.liveness = 2s" "timeouts.session = 120s"
	base=$(fab_res_counts 1 rdmad)
	fab_spawn 2 probe "\$PROBE -s 64k -D 120 -t 10 --json $A1"
	fab_probe_connected 1
	sleep 2
	t0=$(fab_now)
	"$@"
	fab_expect_reap 1 "$t0" "$base" "$what"
}

# ---- the mesh: every rdmad probing the others ---------------------------

# fab_peer J [PORT [RAIL]]: host J as a mesh peer name, "ADDRESS:PORT"
# (the label of its series in the other hosts' metrics).
fab_peer() { echo "$(fab_addr "$1" "${3:-0}"):${2:-7471}"; }

# fab_mesh_start N PORT [SECTION.KEY = VALUE ...]: rdmad on hosts 1..N,
# each with [mesh] targets = a file listing all N hosts (a host skips its
# own address) and the extra lines given (as fab_rdmad_start).  Each
# host's file is /tmp/fabric-test/peers there ($T in a job).
fab_mesh_start() {
	local n=$1 port=$2 j targets=""
	shift 2
	for ((j = 1; j <= n; j++)); do targets+="$(fab_peer "$j" "$port")"$'\n'; done
	fab_mesh_hosts "$n" "$port" peers "${targets%$'\n'}" "$@"
}

# fab_mesh_hosts N PORT NAME TEXT [SECTION.KEY = VALUE ...]: on hosts
# 1..N at once, TEXT into /tmp/fabric-test/NAME and rdmad started with
# [mesh] targets = that file and the lines given (fab_rdmad_start): a
# host's first connects find the others listening sooner, and the test
# spends less time starting them one after the other.
fab_mesh_hosts() {
	local n=$1 port=$2 name=$3 text=$4 j pids=()
	shift 4
	for ((j = 1; j <= n; j++)); do
		(
			fab_sh "$j" "cat >\$T/$name <<'FAB_EOF'
$text
FAB_EOF" || fab_fail "host $j: cannot write its targets file $name"
			fab_rdmad_start "$j" "$port" "mesh.targets = /tmp/fabric-test/$name" "$@"
		) &
		pids+=($!)
	done
	for j in "${!pids[@]}"; do
		wait "${pids[j]}" || fab_fail "rdmad on host $((j + 1)) did not start on its targets file $name"
	done
}

# fab_at_once "I..." CMD [ARG...]: CMD I ARG... for each host I at once,
# each in a subshell of its own (a wait for hosts that are all up costs
# one look at each, not one after the other: 1.5-3.5 s a look at /peers
# in TCG guests, measured); the test fails when one of them failed (its
# own FAIL line says why).  What CMD sets in the shell is lost: it leaves
# its results in files ($T/rows-I, $T/up-I.prom).
fab_at_once() {
	local hosts=$1 i p pids=() rc=0
	shift
	for i in $hosts; do
		"$1" "$i" "${@:2}" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || rc=1; done
	[ "$rc" = 0 ] || exit 1
}

# How the tests reach an rdmad's HTTP endpoint on its host: plain HTTP on
# 127.0.0.1:9470 unless fab_tls_setup turned on TLS with basic auth.
FAB_HTTP_CURL="curl -sf"
FAB_HTTP_URL=http://127.0.0.1:9470
FAB_TLS=

# fab_tls_setup N: TLS and basic auth for the HTTP endpoints of hosts
# 1..N, as an operator would set them up: a CA (made here), a key and a
# certificate a host for its addresses (127.0.0.1 and its rail-0
# address), a web config (tls_server_config and basic_auth_users, one
# user "prom" with a bcrypt hash) in /tmp/fabric-test/tls on each host.
# The rdmads started after it take "http.web_config = $FAB_TLS_WEB";
# fab_scrape and fab_peer_rows then speak TLS with the password, and
# fab_prom_mixin_start's Prometheus scrapes over TLS with it.  bcrypt
# cost 5: a cost 10 check takes seconds in a TCG guest (rdmad caches a
# verified credential; the first scrape of each pays once).
fab_tls_setup() {
	local n=$1 i d=$T/tls pw hash
	mkdir -p "$d"
	tls_ca "$d" ca
	pw=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	printf '%s' "$pw" >"$d/password"
	hash=$(bcrypt_hash "$pw" 32) || fab_fail "python3 crypt made no bcrypt hash"
	case $hash in '$2b$05$'*) ;; *) fab_fail "python3 crypt gave '$hash', not a bcrypt hash" ;; esac
	# the certificates one after the other (openssl x509 -CAcreateserial
	# keeps one serial file), then onto the hosts at once
	for ((i = 1; i <= n; i++)); do
		tls_leaf "$d" "h$i" ca "subjectAltName=IP:127.0.0.1,IP:$(fab_addr "$i")"
	done
	fab_at_once "$(seq -s ' ' 1 "$n")" fab_tls_files "$d" "$pw" "$hash"
	FAB_TLS=$d
	FAB_TLS_WEB=/tmp/fabric-test/tls/web.yml
	FAB_HTTP_CURL="curl -sf --cacert /tmp/fabric-test/tls/ca.crt --netrc-file /tmp/fabric-test/tls/netrc"
	FAB_HTTP_URL=https://127.0.0.1:9470
}

# fab_tls_files I DIR PW HASH: fab_tls_setup's files for host I (its key
# and certificate from DIR) in /tmp/fabric-test/tls there.
fab_tls_files() {
	local i=$1 d=$2 pw=$3 hash=$4
	fab_sh "$i" -t 60 "mkdir -p \$T/tls && cd \$T/tls &&
cat >ca.crt <<'FAB_EOF'
$(cat "$d/ca.crt")
FAB_EOF
cat >server.crt <<'FAB_EOF'
$(cat "$d/h$i.crt")
FAB_EOF
(umask 077 && cat >server.key <<'FAB_EOF'
$(cat "$d/h$i.key")
FAB_EOF
)
(umask 077 && printf 'machine 127.0.0.1 login prom password %s\n' '$pw' >netrc)
cat >web.yml <<'FAB_EOF'
tls_server_config:
  cert_file: server.crt
  key_file: server.key
basic_auth_users:
  prom: '$hash'
FAB_EOF" >"$T/tls-$i.log" || fab_fail "host $i: cannot write its TLS files: $(tail -5 "$T/tls-$i.log")"
}

# fab_scrape I FILE: host I's rdmad metrics (Prometheus text) into FILE.
fab_scrape() {
	fab_sh "$1" -t 120 "$FAB_HTTP_CURL $FAB_HTTP_URL/metrics" >"$2" ||
		fab_fail "host $1: cannot scrape rdmad's metrics"
}

# fab_scrape_to I TAG: fab_scrape into $T/TAG-I.prom (for fab_at_once).
fab_scrape_to() { fab_scrape "$1" "$T/$2-$1.prom"; }

# fab_mesh_wait_up I SECS PEER...: until host I's rdmad has every PEER
# (fab_peer names) up with a verified round of each size done ($sizes
# rounds ok, default 1); fails after SECS naming who is not.
fab_mesh_wait_up() {
	local i=$1 secs=$2 k p ok
	shift 2
	for ((k = 0; k < secs * 2; k++)); do
		fab_scrape "$i" "$T/up-$i.prom"
		ok=1
		for p in "$@"; do
			[ "$(prom_sum "$T/up-$i.prom" rdmad_mesh_peer_up "peer=\"$p\"")" = 1 ] &&
				[ "$(prom_sum "$T/up-$i.prom" rdmad_mesh_rounds_total "peer=\"$p\"" 'result="ok"')" -ge "${sizes:-1}" ] ||
				ok=0
		done
		[ "$ok" = 1 ] && return 0
		sleep 0.5
	done
	fab_fail "host $i: not every peer up with verified rounds after ${secs}s: $(grep -E '^rdmad_mesh_(peer_up|rounds_total)' "$T/up-$i.prom" | grep -v ' 0$' | head -20)"
}

# fab_mesh_wait_all N SECS [PORT]: fab_mesh_wait_up on hosts 1..N at once
# (fab_at_once), each for the N-1 others on PORT (default 7471).
fab_mesh_wait_all() {
	fab_at_once "$(seq -s ' ' 1 "$1")" fab_mesh_wait_others "$@"
}
# fab_mesh_wait_others I N SECS [PORT]: host I waits for the N-1 others.
fab_mesh_wait_others() {
	local i=$1 n=$2 secs=$3 port=${4:-7471} j peers=()
	for ((j = 1; j <= n; j++)); do [ "$j" = "$i" ] || peers+=("$(fab_peer "$j" "$port")"); done
	fab_mesh_wait_up "$i" "$secs" "${peers[@]}"
}

# fab_wait_sum I SECS TEST NAME [LABEL...]: until TEST (a command given
# host I's sample sum, prom_sum, of NAME with the LABELs) is true; 1
# after SECS.  The sum last seen is in $FAB_SUM.
fab_wait_sum() {
	local i=$1 secs=$2 test=$3 k
	shift 3
	for ((k = 0; k < secs * 2; k++)); do
		fab_scrape "$i" "$T/wait-$i.prom"
		FAB_SUM=$(prom_sum "$T/wait-$i.prom" "$@")
		"$test" "$FAB_SUM" && return 0
		sleep 0.5
	done
	return 1
}

# fab_wait_metric I SECS VALUE NAME [LABEL...]: until host I's sample sum
# of NAME with the LABELs is VALUE; fails after SECS.
fab_wait_metric() {
	local i=$1 secs=$2 want=$3
	shift 3
	is_want() { [ "$1" = "$want" ]; }
	fab_wait_sum "$i" "$secs" is_want "$@" ||
		fab_fail "host $i: $* is $FAB_SUM, not $want, after ${secs}s"
}

# fab_wait_positive I SECS NAME [LABEL...]: until host I's sample sum of
# NAME with the LABELs is above 0; fails after SECS.
fab_wait_positive() {
	local i=$1 secs=$2
	shift 2
	is_positive() { awk -v v="$1" 'BEGIN { exit !(v > 0) }'; }
	fab_wait_sum "$i" "$secs" is_positive "$@" ||
		fab_fail "host $i: $* is $FAB_SUM after ${secs}s, want above 0"
}

# ---- the rack mesh: one inventory, each rdmad choosing its peers ----------

# fab_inventory N PORT: the inventory of hosts 1..N as docs/fleet.md
# writes it: host=hI, tor=rR (R host I's rack).  With FAB_MESH_RAILS=2,
# each host's address on each rail, rail=0 and rail=1 (rail 1 is one
# flat wire; its lines keep the host's ToR: a rail's ToRs are the
# inventory's to name, the selection runs on each rail on its own).
# With FAB_MESH_TOR=NAME every host is in ToR NAME: a full mesh on each
# rail (every host probes every other, as same-ToR peers).
fab_inventory() {
	local j r rails=${FAB_MESH_RAILS:-1} tor
	[ "$rails" = 1 ] || fab_require_rails "$rails"
	echo "# ADDRESS:PORT  host=  tor=   (the fabric's racks)"
	for ((j = 1; j <= $1; j++)); do
		tor=${FAB_MESH_TOR:-r$(fab_rack "$j")}
		if [ "$rails" = 1 ]; then
			echo "$(fab_peer "$j" "$2") host=h$j tor=$tor"
			continue
		fi
		for ((r = 0; r < rails; r++)); do
			echo "$(fab_peer "$j" "$2" "$r") host=h$j tor=$tor rail=$r"
		done
	done
}

# fab_rack_mesh_start N PORT [SECTION.KEY = VALUE ...]: rdmad on hosts
# 1..N, each with [mesh] targets = the same inventory (fab_inventory:
# $T/inv here, /tmp/fabric-test/inv on each host) and the lines given,
# started at once (fab_mesh_hosts).
fab_rack_mesh_start() {
	local n=$1 port=$2
	shift 2
	fab_inventory "$n" "$port" >"$T/inv"
	fab_mesh_hosts "$n" "$port" inv "$(cat "$T/inv")" "$@"
}

# fab_quiet_epoch N PORT M [SECS]: "mesh.epoch = Es" for fab_rack_mesh_start
# (hosts 1..N, cross_tor M) such that no host's cross-ToR slot moves on
# within SECS (default 1800) from now: a whole number of hours from 24 h
# down, as select-oracle --quiet finds it.  A slot switches at its host's
# phase, the same moments of every day with 24 h: a test run at such a
# time of day lost a prober in the middle of a fault (CI, 18:41 UTC).
fab_quiet_epoch() {
	local e secs=${4:-1800}
	fab_inventory "$1" "$2" >"$T/inv-quiet"
	e=$("$RDMAD_BUILD_DIR/tests/select-oracle" --cross-tor "$3" --quiet "$(date +%s%3N)" "$secs" "$T/inv-quiet") ||
		fab_fail "select-oracle --quiet found no epoch without a switch within ${secs}s (build it: ninja -C $RDMAD_BUILD_DIR)"
	fab_log "epoch ${e}s: no cross-ToR slot moves on within ${secs}s"
	echo "mesh.epoch = ${e}s"
}

# fab_peer_rows I JSON: host I's /peers into the file JSON, and a row a
# peer on stdout: PEER|WHY|SLOT|EPOCH|UP|OK|FAILED|P99_MS (SLOT and EPOCH
# "-" when not cross-ToR; UP 1 or 0; rounds ok and failed and the window's
# p99 in ms ("-": none), over the peer's paths).
fab_peer_rows() {
	fab_sh "$1" -t 30 "$FAB_HTTP_CURL $FAB_HTTP_URL/peers" >"$2" ||
		fab_fail "host $1: GET /peers failed"
	python3 - "$2" <<'PY' || fab_fail "host $1: /peers is not as expected: $(head -c 1000 "$2")"
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["peers"]:
    paths = p["paths"]
    p99 = [x["p99_seconds"] for x in paths if x["p99_seconds"] is not None]
    print("|".join(str(v) for v in (
        p["peer"], p["why"], p.get("slot", "-"), p.get("epoch", "-"),
        int(p["up"]), sum(x["rounds_ok"] for x in paths),
        sum(x["rounds_failed"] for x in paths),
        "%.1f" % (max(p99) * 1e3) if p99 else "-")))
PY
}

# fab_rack_expected I ROWS M: the peers (PEER|WHY|SLOT|EPOCH, sorted) the
# selection promises host I (hI in $T/inv, cross_tor M): select-oracle,
# the daemon's own pure selection code, for each cross-ToR slot at the
# epoch host I reports for it in ROWS (fab_peer_rows).
fab_rack_expected() {
	local i=$1 rows=$2 m=$3 oracle=$RDMAD_BUILD_DIR/tests/select-oracle slot e
	"$oracle" --cross-tor "$m" "$T/inv" "h$i" 0 >"$T/oracle-$i" ||
		fab_fail "select-oracle failed for host $i (build it: ninja -C $RDMAD_BUILD_DIR)"
	{
		grep -v '|cross-ToR|' "$T/oracle-$i"
		for slot in $(awk -F'|' '$3 != "-" { print $3 }' "$T/oracle-$i" | sort -un); do
			e=$(awk -F'|' -v s="$slot" '$3 == s { print $4; exit }' "$rows")
			if [ -z "$e" ]; then
				echo "(a cross-ToR peer in slot $slot)"
				continue
			fi
			"$oracle" --cross-tor "$m" "$T/inv" "h$i" "$e" | awk -F'|' -v s="$slot" '$3 == s'
		done
	} | sort
}

# fab_rack_peers_match I ROWS M: true when host I's peers in ROWS are
# exactly fab_rack_expected's; else the difference ("<" promised, ">"
# chosen) is in $T/peers-diff-I.
fab_rack_peers_match() {
	diff <(fab_rack_expected "$1" "$2" "$3") <(cut -d'|' -f1-4 "$2" | sort) >"$T/peers-diff-$1"
}

# fab_rack_wait_up I SECS M [ROUNDS]: until host I has exactly the peers
# the selection promises (fab_rack_peers_match), each up with ROUNDS
# (default 2) verified rounds; its rows are left in $T/rows-I.  Fails
# after SECS naming what is missing.
fab_rack_wait_up() {
	local i=$1 secs=$2 m=$3 want=${4:-2} end
	end=$(($(now_ms) + secs * 1000))
	while :; do
		fab_peer_rows "$i" "$T/peers-$i.json" >"$T/rows-$i"
		fab_rack_peers_match "$i" "$T/rows-$i" "$m" &&
			awk -F'|' -v w="$want" '$5 != 1 || $6 < w { bad = 1 } END { exit bad }' "$T/rows-$i" &&
			return 0
		[ "$(now_ms)" -lt "$end" ] || break
		sleep 0.5
	done
	fab_fail "host $i: not the promised peers all up with $want verified rounds after ${secs}s: promised (<) against chosen (>): $(cat "$T/peers-diff-$i"); rows: $(cat "$T/rows-$i")"
}

# fab_clock_offset I: host I's clock minus this machine's, in seconds (its
# date read in a job, against the middle of the job's round trip here:
# within ~0.5 s); add it to a fab_now to have that moment on host I.
fab_clock_offset() {
	local a g
	a=$(fab_now)
	g=$(fab_sh "$1" -t 30 'date +%s.%N') || fab_fail "host $1: cannot read its clock"
	awk -v a="$a" -v b="$(fab_now)" -v g="$g" 'BEGIN { printf "%.3f\n", g - (a + b) / 2 }'
}

# fab_offsets I...: FAB_OFF[I] = fab_clock_offset I for each host, taken
# before an event so that reading the clocks does not delay it; fab_at T
# I: moment T (a fab_now) on host I's clock.
declare -A FAB_OFF
fab_offsets() {
	local i
	for i in "$@"; do FAB_OFF[$i]=$(fab_clock_offset "$i"); done
}
fab_at() { awk -v t="$1" -v o="${FAB_OFF[$2]}" 'BEGIN { printf "%.3f", t + o }'; }

# fab_log_delay I G PATTERN: seconds from G (a moment on host I's clock,
# as fab_clock_offset gives it: within ~0.5 s) to the first line of its
# rdmad log matching PATTERN stamped after G - 1 s (a line up to 1 s
# "early" is the offset's error; its delay shows negative); empty when
# there is none.
fab_log_delay() {
	fab_sh "$1" -t 30 "grep -- '$3' \$T/rdmad.log | while read -r l; do
	t=\$(date -d \"\$(echo \"\$l\" | cut -c1-23 | tr T ' ')\" +%s.%N)
	awk -v a=$2 -v b=\$t 'BEGIN { if (b < a - 1) exit 1; printf \"%.2f\\n\", b - a }' && break
done"
}

# ---- the monitoring host: Prometheus and the Alertmanager ----------------
# tests/fabric/fabric gives the fabric a monitoring host: a network
# namespace of this machine (not a guest) with eth0 10.99.0.2 on the
# management segment and eth1 10.98.0.2 on the wire (rack 1's bridge),
# nothing else.  Prometheus and the Alertmanager (Debian's packages) run
# there, natively: in the TCG guests they took most of t-78's, t-96's and
# t-99's guest CPU, and under CI's load the alerts came late.  It
# is what a real fleet has too: its Prometheus servers are machines of
# their own on the frontend network.  Their state is in $T/NAME (this
# machine's scratch folder of the test); what a test started there is
# killed when it ends (fab_leave), whatever it did.

# The fabric's short windows of the monitoring mixin: a mesh round a
# second, scraped every 2 s, alerts within seconds (its promtool tests use
# the same file).
FAB_MIXIN_SHORT=$RDMAD_SOURCE_DIR/monitoring/tests/short/config.jsonnet

# fab_mixin_secs KEY: the duration KEY ("30s", "2m") of the short windows
# in seconds; fails the test when it cannot read it.
fab_mixin_secs() {
	jsonnet -e "(import '$FAB_MIXIN_SHORT').$1" | tr -d '"' |
		awk '/s$/ { print $0 + 0; next } /m$/ { print $0 * 60; next } { exit 1 }' ||
		fab_fail "cannot read $1 from $FAB_MIXIN_SHORT"
}

# fab_mon [-t SECS] CMD [ARG...]: run CMD on the monitoring host, print its
# output, return its status (124: not done by the deadline, default 60 s).
fab_mon() {
	local secs=60
	[ "$1" = -t ] && { secs=$2; shift 2; }
	timeout -k 5 "$secs" ip netns exec "$(cat "$F/monitor")" "$@"
}

# fab_mon_clean: kill whatever runs on the monitoring host, logging the
# CPU time it took (its own, not in tap-suite's column of the hosts').
fab_mon_clean() {
	local p x cpu
	p=$(ip netns pids "$(cat "$F/monitor")" 2>/dev/null) || return 0
	[ -z "$p" ] && return 0
	cpu=$(for x in $p; do
		sed 's/.*) //' "/proc/$x/stat" 2>/dev/null | awk '{ print $12 + $13 }'
	done | awk -v hz="$(getconf CLK_TCK)" '{ t += $1 } END { printf "%.1f", t / hz }')
	fab_log "monitoring host: $(echo "$p" | wc -l) processes ($(for x in $p; do cat "/proc/$x/comm" 2>/dev/null; done | sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')) took ${cpu} s of CPU"
	# shellcheck disable=SC2086
	kill -TERM $p 2>/dev/null
	sleep 0.5
	# shellcheck disable=SC2086
	kill -KILL $p 2>/dev/null
	return 0
}

# fab_mixin_build DIR [OVERRIDE]: the monitoring mixin's rules and alerts
# rendered into DIR by monitoring/build with OVERRIDE (a jsonnet object;
# default the short windows above); fails the test when it cannot.
fab_mixin_build() {
	local dir=$1 over=${2:-"(import '$FAB_MIXIN_SHORT')"} f
	"$RDMAD_SOURCE_DIR/monitoring/build" "$dir" "$over" >"$dir.log" 2>&1 ||
		fab_fail "monitoring/build failed: $(tail -5 "$dir.log")"
	for f in rdmad-rules.yaml rdmad-alerts.yaml; do
		[ -s "$dir/$f" ] || fab_fail "monitoring/build made no $f"
	done
}

# fab_mon_ready NAME URL: until URL answers on the monitoring host (40 s);
# fails the test with NAME's log ($T/NAME/NAME.log) otherwise.
fab_mon_ready() {
	local k
	for ((k = 0; k < 200; k++)); do
		fab_mon -t 5 curl -sf "$2" >/dev/null && return 0
		sleep 0.2
	done
	fab_fail "$1 did not start on the monitoring host: $(tail -20 "$T/$1/$1.log")"
}

# fab_prom_start NAME LISTEN CONFIG [FILE...]: a Prometheus on the
# monitoring host listening on LISTEN (ADDRESS:PORT), CONFIG the text of
# its prometheus.yml, each FILE copied beside it as $T/NAME/BASENAME
# (what CONFIG's rule_files name: fab_prom_dir NAME); the config checked
# by promtool first, its TSDB new.  Returns once it answers /-/ready;
# fails the test with its log otherwise.  Alerts are re-sent every 5 s,
# not every minute: an Alertmanager takes a resolution for a still
# firing alert until the next send (measured with the hosts' clocks,
# which are not kept in step: verdicts resolved in Prometheus stayed
# active in the Alertmanager 53-65 s more).
fab_prom_start() {
	local name=$1 listen=$2 conf=$3 d f
	shift 3
	d=$(fab_prom_dir "$name")
	# a fresh TSDB: a run before (the same test in the same build tree)
	# left its series and its alerts' state, which Prometheus restores
	rm -rf "$d/data"
	mkdir -p "$d/data"
	printf '%s\n' "$conf" >"$d/prometheus.yml"
	for f in "$@"; do
		[ -s "$f" ] || fab_fail "fab_prom_start: no file $f"
		cp "$f" "$d/"
	done
	promtool check config "$d/prometheus.yml" >"$d/check.log" 2>&1 ||
		fab_fail "Prometheus '$name': its config is refused: $(tail -20 "$d/check.log")"
	ip netns exec "$(cat "$F/monitor")" setsid prometheus --config.file="$d/prometheus.yml" \
		--storage.tsdb.path="$d/data" --web.listen-address="$listen" \
		--rules.alert.resend-delay=5s --log.level=warn >"$d/$name.log" 2>&1 </dev/null &
	disown $!
	fab_mon_ready "$name" "http://$listen/-/ready"
}

# fab_prom_dir NAME: where fab_prom_start NAME keeps its config and files
# (for CONFIG's rule_files and password files).
fab_prom_dir() { echo "$T/$1"; }

# fab_prom_mixin_start DIR TARGET...: one Prometheus on the monitoring
# host at 127.0.0.1:9090 ("prom"), scraping and evaluating every 2 s, the
# rules and alerts of the mixin rendered in DIR (fab_mixin_build), the
# rdmads at TARGET... (ADDRESS:PORT) as job rdmad (t-96, t-78); after
# fab_tls_setup, over TLS (the fabric's CA) with basic auth (a
# password_file); with FAB_AM set, its alerts sent to that Alertmanager.
fab_prom_mixin_start() {
	local dir=$1 t targets="" tls="" files=() p alerting=""
	shift
	[ -z "${FAB_AM:-}" ] || alerting="
alerting:
  alertmanagers:
    - static_configs:
        - targets: ['$FAB_AM']"
	p=$(fab_prom_dir prom)
	for t in "$@"; do targets+="${targets:+, }'$t'"; done
	if [ -n "$FAB_TLS" ]; then
		tls="
    scheme: https
    tls_config:
      ca_file: $p/ca.crt
    basic_auth:
      username: prom
      password_file: $p/password"
		files=("$FAB_TLS/ca.crt" "$FAB_TLS/password")
	fi
	fab_prom_start prom 127.0.0.1:9090 "global:
  scrape_interval: 2s
  scrape_timeout: 2s
  evaluation_interval: 2s
rule_files:
  - $p/rdmad-rules.yaml
  - $p/rdmad-alerts.yaml$alerting
scrape_configs:
  - job_name: rdmad$tls
    static_configs:
      - targets: [$targets]" "$dir/rdmad-rules.yaml" "$dir/rdmad-alerts.yaml" "${files[@]}"
}

# fab_prom_get LISTEN PATH [CURL-ARG...]: the JSON answer of the
# Prometheus (or Alertmanager) at LISTEN to GET PATH, asked on the
# monitoring host.
fab_prom_get() {
	local listen=$1 path=$2
	shift 2
	fab_mon -t 30 curl -sfG "http://$listen$path" "$@"
}

# fab_prom_query LISTEN EXPR: the JSON answer of the Prometheus at LISTEN
# to the instant query EXPR.
fab_prom_query() {
	fab_prom_get "$1" /api/v1/query --data-urlencode "query=$2"
}

# fab_prom_alerts LISTEN STATE: the alerts in STATE (pending, firing) of
# the Prometheus at LISTEN, as sorted "NAME key" lines (key: the peer or
# instance label they are about, SOURCE->PEER for a pair).
fab_prom_alerts() {
	fab_prom_query "$1" "ALERTS{alertstate=\"$2\"}" | python3 -c 'import json,sys
d = json.load(sys.stdin)
out = []
for r in d["data"]["result"]:
    m = r["metric"]
    key = m.get("peer") or m.get("instance") or ""
    if m.get("source"):
        key = m["source"] + "->" + key
    out.append(m["alertname"] + " " + key)
print("\n".join(sorted(out)))'
}

# fab_prom_count LISTEN EXPR: how many series the instant query EXPR
# returns ("error" when the query fails).
fab_prom_count() {
	fab_prom_query "$@" | python3 -c 'import json, sys
d = json.load(sys.stdin)
assert d["status"] == "success", d
print(len(d["data"]["result"]))' 2>/dev/null || echo error
}

# fab_am_start LISTEN [INHIBIT]: an Alertmanager on the monitoring host
# ($T/am), alone (no cluster), every alert to one receiver that sends
# nowhere, with the mixin's inhibition rules (INHIBIT, a render's
# rdmad-inhibit.yaml; default monitoring/generated/rdmad-inhibit.yaml):
# the tests read what it holds (fab_am_alerts).  Returns once it is ready.
fab_am_start() {
	local listen=$1 d=$T/am inhibit=${2:-$RDMAD_SOURCE_DIR/monitoring/generated/rdmad-inhibit.yaml}
	rm -rf "$d/data"
	mkdir -p "$d/data"
	cat >"$d/alertmanager.yml" <<'FAB_EOF'
route:
  receiver: log
  group_by: [alertname]
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 1h
receivers:
  - name: log
FAB_EOF
	[ -s "$inhibit" ] || fab_fail "fab_am_start: no inhibition rules $inhibit"
	sed '/^#/d' "$inhibit" >>"$d/alertmanager.yml"
	amtool check-config "$d/alertmanager.yml" >"$d/check.log" 2>&1 ||
		fab_fail "the Alertmanager's config is refused: $(tail -20 "$d/check.log")"
	ip netns exec "$(cat "$F/monitor")" setsid prometheus-alertmanager --config.file="$d/alertmanager.yml" \
		--storage.path="$d/data" --web.listen-address="$listen" --cluster.listen-address= \
		--log.level=warn >"$d/am.log" 2>&1 </dev/null &
	disown $!
	fab_mon_ready am "http://$listen/-/ready"
}

# fab_am_alerts LISTEN: the alerts the Alertmanager at LISTEN holds
# active (neither resolved, silenced nor inhibited), one sorted line each:
# the name and the labels that name the part, "RdmadHostDown peer_host=h4
# peer_tor=r2" (peer_tor, peer_host, rail, source_host, instance, peer,
# those it has).  Fails the test when it cannot read them.
fab_am_alerts() {
	fab_prom_get "$1" /api/v2/alerts --data-urlencode active=true --data-urlencode silenced=false \
		--data-urlencode inhibited=false >"$T/am-alerts.json" ||
		fab_fail "cannot read the alerts of the Alertmanager at $1: $(head -c 300 "$T/am-alerts.json")"
	python3 - "$T/am-alerts.json" <<'PY' || fab_fail "the Alertmanager's answer is not a list of alerts: $(head -c 300 "$T/am-alerts.json")"
import json, sys
out = []
for a in json.load(open(sys.argv[1])):
    m = a["labels"]
    # source_host where no peer_host names the part (RdmadProberFailing):
    # a pair alert's prober is its instance, a verdict's source_host its
    # own part again (for the inhibition rules: alerts/inhibit.libsonnet)
    keys = [k for k in ("peer_tor", "peer_host", "rail", "source_host", "instance", "peer")
            if m.get(k) and not (k == "source_host" and m.get("peer_host"))]
    out.append(" ".join([m["alertname"]] + ["%s=%s" % (k, m[k]) for k in keys]))
print("\n".join(sorted(set(out))))
PY
}

# ---- verdicts end to end: what the Alertmanager holds --------------------
# The tests that run Prometheus and an Alertmanager on the monitoring host
# (t-99, t-100) set FAB_AM (the Alertmanager's LISTEN) and
# FAB_VERDICT_PROM (the Prometheus that evaluates the verdicts).

# fab_require_alerting: the monitoring host's programs are installed.
fab_require_alerting() {
	local c
	for c in prometheus promtool prometheus-alertmanager amtool jsonnet; do
		command -v "$c" >/dev/null ||
			fab_fail "$c is missing: apt-get install prometheus prometheus-alertmanager jsonnet (tests/testbed/install-deps)"
	done
}

# fab_verdict_override [EXTRA]: the mixin's config for the verdicts in
# minutes (fab_mixin_build's OVERRIDE): the short windows
# (monitoring/tests/short) and, for the verdicts, a 30 s window held 12 s;
# the pair and host alerts wait 30 s, longer than a verdict takes to come
# back from a global Prometheus (two scrapes and two evaluations of 2 s):
# the Alertmanager holds a pair alert back under its verdict, but
# fab_am_expect reads what it holds active at once, before a notification's
# group_wait; EXTRA (a jsonnet object's fields) on top.
fab_verdict_override() {
	echo "(import '$FAB_MIXIN_SHORT') + { verdictWindow: '30s', verdictFor: '12s', forShort: '30s', pairFor: '30s'${1:+, $1} }"
}

# ---- the gray verdicts' tests (t-100, t-101) -------------------------------
# fab_decided_mixin [EXTRA]: render, in the background, the mixin with the
# alerts on what the agents decided (decidedAlerts) and t-99's windows
# (fab_verdict_override, EXTRA on top) into $T/mixin.
fab_decided_mixin() {
	fab_mixin_build "$T/mixin" "$(fab_verdict_override "decidedAlerts: true${1:+, $1}")" &
	FAB_MIXIN_JOB=$!
}

# fab_decided_monitor N: once that render is done, an Alertmanager at
# $FAB_AM with its inhibition rules and the Prometheus of
# fab_prom_mixin_start ($FAB_VERDICT_PROM) on hosts 1..N's rdmads.
fab_decided_monitor() {
	local i p pids=() targets=()
	wait "$FAB_MIXIN_JOB" || exit 1
	grep -q RdmadNicSlow "$T/mixin/rdmad-alerts.yaml" ||
		fab_fail "the render with decidedAlerts has no gray verdicts (RdmadNicSlow)"
	for ((i = 1; i <= $1; i++)); do targets+=("$(fab_mgmt_addr "$i"):9470"); done
	fab_am_start "$FAB_AM" "$T/mixin/rdmad-inhibit.yaml" &
	pids+=($!)
	fab_prom_mixin_start "$T/mixin" "${targets[@]}" &
	pids+=($!)
	for p in "${pids[@]}"; do wait "$p" || exit 1; done
}

# fab_peers_eval N EXPR: for each of hosts 1..N, "hI: " and the python
# EXPR evaluated on its /peers (as d), a line each; a host whose /peers
# cannot be read is left out (logged figures, not a check).
fab_peers_eval() {
	local i
	for ((i = 1; i <= $1; i++)); do
		fab_sh "$i" -t 30 "$FAB_HTTP_CURL $FAB_HTTP_URL/peers" >"$T/peers-eval-$i.json" || continue
		echo "h$i: $(json_get "$T/peers-eval-$i.json" "$2")"
	done
}

# fab_pair_alerts NAME "S D"...: NAME's alert of each pair, prober S to
# peer D (host numbers) on rail 0, as fab_am_alerts prints it (ALSO_OK).
fab_pair_alerts() {
	local name=$1 a s d
	shift
	for a in "$@"; do
		read -r s d <<<"$a"
		echo "$name peer_tor=r$(fab_rack "$d") peer_host=h$d rail=0 instance=$(fab_mgmt_addr "$s"):9470 peer=$(fab_peer "$d")"
	done
}

# fab_am_got FILE: what the Alertmanager holds active (fab_am_alerts) into
# FILE, but for the alerts in $HOLD_OK (lines as fab_am_alerts prints
# them): a test's noise that may come and go in any phase, each logged
# once when first seen (fab_am_expect and fab_am_hold read this).
declare -A FAB_HELD_SEEN=()
fab_am_got() {
	local a
	fab_am_alerts "$FAB_AM" >"$1"	# not in $(): its failure must end the test
	[ -n "${HOLD_OK:-}" ] || return 0
	while read -r a; do
		[ -n "$a" ] && [ -z "${FAB_HELD_SEEN[$a]:-}" ] && grep -qxF "$a" "$1" &&
			FAB_HELD_SEEN[$a]=1 && fab_log "active, allowed (HOLD_OK): $a"
	done <<<"$HOLD_OK"
	grep -vxF -f <(echo "$HOLD_OK") "$1" >"$1.kept"
	mv "$1.kept" "$1"
}

# fab_am_expect WHAT WANT TIMEOUT: until the Alertmanager holds exactly WANT
# (sorted lines; empty: nothing), failing at once on an alert that is not
# in WANT (nor in $ALSO_OK: alerts of the fault's end that may still be
# active while it resolves).  Sets $took to the seconds it waited and
# $firsts to when each alert of WANT was first seen ("NAME after S s").
fab_am_expect() {
	local what=$1 want=$2 secs=$3 t got extra end a
	local -A first=() gone=()
	t=$(fab_now)
	end=$(($(date +%s) + secs))
	while :; do
		fab_am_got "$T/got"
		got=$(cat "$T/got")
		while read -r a; do
			[ -n "$a" ] && [ -z "${first[$a]:-}" ] && first[$a]=$(fab_since "$t")
		done <<<"$got"
		while read -r a; do
			[ -n "$a" ] && [ -z "${gone[$a]:-}" ] && ! grep -qxF "$a" <<<"$got" && gone[$a]=$(fab_since "$t")
		done <<<"${ALSO_OK:-}"
		[ "$got" = "$want" ] && break
		extra=$(comm -13 <(printf '%s\n%s\n' "$want" "${ALSO_OK:-}" | sort -u) <(echo "$got") | sed '/^$/d')
		[ -z "$extra" ] || fab_fail "$what: unexpected alert active after $(fab_since "$t") s: ${extra//$'\n'/, } (all: ${got//$'\n'/, })"
		[ "$(date +%s)" -lt "$end" ] || fab_fail "$what: after $secs s active: '${got//$'\n'/, }', want '${want//$'\n'/, }'"
		sleep 1
	done
	took=$(fab_since "$t")
	firsts=$(while read -r a; do [ -n "$a" ] && echo "$a after ${first[$a]}s"; done <<<"$want" | paste -sd';' - | sed 's/;/; /g')
	gones=$(while read -r a; do [ -n "$a" ] && echo "${a%% *} gone after ${gone[$a]:-?}s"; done <<<"${ALSO_OK:-}" | paste -sd';' - | sed 's/;/; /g')
}
# fab_am_hold WHAT WANT SECS: the Alertmanager holds exactly WANT for SECS.
fab_am_hold() {
	local end=$(($(date +%s) + $3)) got
	while [ "$(date +%s)" -lt "$end" ]; do
		fab_am_got "$T/got"
		got=$(cat "$T/got")
		[ "$got" = "$2" ] || fab_fail "$1: active '${got//$'\n'/, }', want '${2//$'\n'/, }'"
		sleep 2
	done
}

# fab_prom_timeline WHAT EXPR T0: how EXPR moved on $FAB_VERDICT_PROM from 30 s
# before T0 (a fab_now) until now, as "LABELS: VALUE@SECONDS..." changes
# relative to T0: where a verdict's time went, for the log.
fab_prom_timeline() {
	local a b
	a=$(awk -v t="$3" 'BEGIN { printf "%.0f", t - 30 }') b=$(date +%s)
	fab_prom_get "$FAB_VERDICT_PROM" /api/v1/query_range --data-urlencode "query=$2" \
		--data-urlencode "start=$a" --data-urlencode "end=$b" --data-urlencode step=2 >"$T/range.json" || return 0
	fab_log "$1: $(python3 - "$T/range.json" "$3" <<'PY'
import json, sys
t0 = float(sys.argv[2])
out = []
for r in json.load(open(sys.argv[1]))["data"]["result"]:
    key = ",".join("%s=%s" % kv for kv in sorted(r["metric"].items()) if kv[0] not in ("job", "__name__"))
    last, moves = None, []
    for ts, v in r["values"]:
        if v != last:
            moves.append("%s@%+.0fs" % (v[:5], float(ts) - t0))
            last = v
    out.append("%s: %s" % (key or "-", " ".join(moves)))
print("; ".join(out) or "no series")
PY
)"
}

# fab_am_scenario WHAT WANT FAULT HEAL HOLD LABEL EXPR [FIRE [RESOLVE]]:
# run FAULT (a command), until the Alertmanager holds exactly WANT (FIRE s
# at most, default 150; and for HOLD s more); run HEAL, until it holds
# nothing (RESOLVE s at most, default 120), and for 10 s more; alerts in
# $ALSO_OK may be active on the way, and WANT's on the way back.  Logged:
# when each alert came and went, and how EXPR (LABEL) moved on
# $FAB_VERDICT_PROM around the heal.
fab_am_scenario() {
	local what=$1 want=$2 t_heal
	eval "$3"
	fab_am_expect "$what" "$want" "${8:-150}"
	fab_log "$what: ${firsts}"
	[ "$5" = 0 ] || fab_am_hold "$what" "$want" "$5"
	eval "$4"
	t_heal=$(fab_now)
	ALSO_OK=$(printf '%s\n%s' "$want" "${ALSO_OK:-}") fab_am_expect "$what, healed" "" "${9:-120}"
	fab_log "$what, healed: resolved after ${took}s ($gones)"
	fab_prom_timeline "$what: $6, around the heal" "$7" "$t_heal"
	fab_am_hold "$what, after the heal" "" 10
}

