# shellcheck shell=bash
# tests/rdma/lib.sh - helpers for rdma suite tests.  Source it first.
#
# A test runs as root inside the soft-RoCE test bed (QEMU guest, or a host
# with RDMA) prepared by tests/testbed/testbed: one rxe device $RDMAD_DEV on
# a veth carrying the server address $RDMAD_SRV_ADDR and the client address
# $RDMAD_CLI_ADDR (see tests/testbed/rxe-setup for why not two namespaces).
# Servers listen on $RDMAD_SRV_ADDR; clients bind to $RDMAD_CLI_ADDR
# (rping -I, rdma-probe -I) so the server sees a distinct peer.
# $RDMAD_BUILD_DIR and $RDMAD_SOURCE_DIR point at the meson build and source
# trees; $T is a scratch directory for this test whose files are kept with
# the suite's results.  Exit 0 for pass, anything else for fail.
# The helpers every suite shares (log, fail, wait_listen, rdma_res_counts,
# wait_res_counts, prom_sum...) are in tests/lib.sh, sourced here.

set -u
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# Every wait gives its condition 60 s at least (wait_secs): this guest
# runs beside CI's other jobs, and a deadline only tells a hang.
export RDMAD_WAIT_FLOOR=${RDMAD_WAIT_FLOOR:-60}
: "${RDMAD_TESTBED_MODE:?not inside the test bed (run through tests/testbed/testbed)}"
: "${RDMAD_BUILD_DIR:?RDMAD_BUILD_DIR not set}"
: "${RDMAD_SOURCE_DIR:?RDMAD_SOURCE_DIR not set}"
T=${RDMAD_TEST_TMP:-$(mktemp -d)}
mkdir -p "$T"

RDMAD=$RDMAD_BUILD_DIR/src/daemon/rdmad
PROBE=$RDMAD_BUILD_DIR/src/probe/rdma-probe
CTL=$RDMAD_BUILD_DIR/src/ctl/rdmadctl

# Run a command as the server host / client host.  Both share the guest's
# network namespace; the split keeps tests readable and ready for kernels
# whose rxe works inside namespaces.
srv() { "$@"; }
cli() { "$@"; }

# need TOOL...: fail unless each is built ("probe", "ctl": rdma-probe,
# rdmadctl) or installed (any other command).
need() {
	local t
	for t in "$@"; do
		case $t in
		probe) [ -x "$PROBE" ] || fail "rdma-probe not built ($PROBE)" ;;
		ctl) [ -x "$CTL" ] || fail "rdmadctl not built ($CTL)" ;;
		*) command -v "$t" >/dev/null || fail "$t not installed" ;;
		esac
	done
}

# real_pid JOBPID NAME: the pid of the real client NAME behind a
# background job (cli may wrap it).
real_pid() {
	local p end
	end=$(($(now_ms) + $(wait_secs 5) * 1000))
	while [ "$(now_ms)" -lt "$end" ]; do
		[ "$(cat /proc/$1/comm 2>/dev/null)" = "$2" ] && { echo $1; return 0; }
		p=$(pgrep -x -P $1 "$2") && { echo $p; return 0; }
		sleep 0.05
	done
	fail "no $2 process under pid $1"
}

trap cleanup_jobs EXIT

# rdmad_conf PORT [LINE...]: write $T/rdmad.ini listening on the server
# address at PORT; each LINE ("section.key = value") sets one more key.
# The accept, io and idle deadlines start at GUEST_DEADLINES (30 s, not
# 5, 10 and 10 s): a starved guest once took over 10 s for one rping
# advert.  A test that checks a deadline sets it (a later key wins).
GUEST_DEADLINES=("timeouts.accept = 30s" "timeouts.io = 30s" "timeouts.idle = 30s")
rdmad_conf() {
	local port=$1
	shift
	ini_text "$RDMAD_SRV_ADDR:$port" "${GUEST_DEADLINES[@]}" "$@" >"$T/rdmad.ini"
}

# rdmad_up PORT [LINE...]: rdmad_conf, then rdmad_start; sets port, its
# pid in rpid and its resources at rest (rdma_res_counts) in base.
rdmad_up() {
	port=$1
	rdmad_conf "$@"
	rdmad_start
	rpid=$RDMAD_PID
	base=$(rdma_res_counts "$rpid")
	log "rdmad pid $rpid, resources at rest: $base"
}

# probe_run OUT [ARG...]: rdma-probe from the client address to the
# server address at $port; stdout in $T/OUT, stderr in $T/OUT less its
# extension plus .err (ok.json: ok.err); its exit status in rc.
# probe_ok OUT [ARG...]: the same; the test fails unless it exits 0.
probe_run() {
	local out=$1
	shift
	cli "$PROBE" -I "$RDMAD_CLI_ADDR" -p "$port" "$@" "$RDMAD_SRV_ADDR" \
		>"$T/$out" 2>"$T/${out%.*}.err"
	rc=$?
	return $rc
}
probe_ok() { probe_want 0 "$@"; }
# probe_want CODE OUT [ARG...]: the same, but it must exit CODE.
probe_want() {
	local want=$1
	shift
	probe_run "$@"
	[ "$rc" = "$want" ] || fail "rdma-probe ${*:2}: exit $rc, want $want: $(cat "$T/${1%.*}.err")"
}

# rdmad_serve PORT [DRAIN]: a serving rdmad on PORT (no HTTP, drain_timeout
# DRAIN, default 30s), config $T/sPORT.ini, log $T/sPORT.log; its pid in
# SPID[PORT] (declare -A SPID first).
rdmad_serve() {
	printf '[server]\nlisten = %s:%s\ndrain_timeout = %s\n[http]\nlisten = off\n' \
		"$RDMAD_SRV_ADDR" "$1" "${2:-30s}" >"$T/s$1.ini"
	rdmad_start "$T/s$1.ini" "$T/s$1.log"
	SPID[$1]=$RDMAD_PID
}

# rdmad_wait_up PORT: rdmad_start's wait (tests/lib.sh): its rdma_cm
# listener shows up in the device's resources.
rdmad_wait_up() { wait_listen "$1"; }
