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

set -u
: "${RDMAD_TESTBED_MODE:?not inside the test bed (run through tests/testbed/testbed)}"
: "${RDMAD_BUILD_DIR:?RDMAD_BUILD_DIR not set}"
: "${RDMAD_SOURCE_DIR:?RDMAD_SOURCE_DIR not set}"
T=${RDMAD_TEST_TMP:-$(mktemp -d)}
mkdir -p "$T"

RDMAD=$RDMAD_BUILD_DIR/src/daemon/rdmad
PROBE=$RDMAD_BUILD_DIR/src/probe/rdma-probe

log() { printf '# %s\n' "$*" >&2; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

# Run a command as the server host / client host.  Both share the guest's
# network namespace; the split keeps tests readable and ready for kernels
# whose rxe works inside namespaces.
srv() { "$@"; }
cli() { "$@"; }

# Wait until something listens for rdma_cm on PORT
# (rdma_cm listeners show up in `rdma resource show cm_id`).  $2: seconds.
wait_listen() {
	local port=$1 secs=${2:-20} i
	for ((i = 0; i < secs * 10; i++)); do
		if rdma resource show cm_id 2>/dev/null |
			grep -qE "state LISTEN .*src-addr [^ ]*:$port( |\$)"; then
			return 0
		fi
		sleep 0.1
	done
	fail "nothing listens on rdma_cm port $port after ${secs}s"
}

# Resource counts of one process: "qp=N cq=N mr=N pd=N cm_id=N".
rdma_res_counts() {
	local pid=$1 r out=""
	for r in qp cq mr pd cm_id; do
		out+="$r=$(rdma resource show "$r" 2>/dev/null | grep -c "pid $pid ") "
	done
	echo "${out% }"
}

# res_diff HAVE WANT (both from rdma_res_counts): the resources whose
# counts differ, "mr 5 (want 4), qp 1 (want 0)"; empty when equal.
res_diff() {
	local have=" $1 " w r out=""
	for w in $2; do
		r=${w%%=*}
		case $have in
		*" $w "*) ;;
		*) out+="${out:+, }$r $(sed -n "s/.* $r=\([0-9]*\) .*/\1/p" <<<"$have") (want ${w#*=})" ;;
		esac
	done
	echo "$out"
}

# Milliseconds of the wall clock: for deadlines that hold however slow
# each step of a wait loop is (a TCG guest takes seconds per iteration).
now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }

# Wait until process PID's resource counts equal WANT (from rdma_res_counts).
wait_res_counts() {
	local pid=$1 want=$2 secs=${3:-20} now="" end
	end=$(($(now_ms) + secs * 1000))
	while :; do
		now=$(rdma_res_counts "$pid")
		[ "$now" = "$want" ] && return 0
		[ "$(now_ms)" -lt "$end" ] || break
		sleep 0.1
	done
	fail "RDMA resources of pid $pid not back after ${secs}s: $(res_diff "$now" "$want")"
}

# real_pid JOBPID NAME: the pid of the real client NAME behind a
# background job (cli may wrap it).
real_pid() {
	local i p
	for ((i = 0; i < 100; i++)); do
		[ "$(cat /proc/$1/comm 2>/dev/null)" = "$2" ] && { echo $1; return 0; }
		p=$(pgrep -x -P $1 "$2") && { echo $p; return 0; }
		sleep 0.05
	done
	fail "no $2 process under pid $1"
}

# Kill background jobs of this test on exit.
cleanup_jobs() { local p; for p in $(jobs -p); do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup_jobs EXIT

# rdmad_conf PORT [LINE...]: write $T/rdmad.ini listening on the server
# address at PORT; each LINE ("section.key = value") sets one more key.
rdmad_conf() {
	local port=$1 l sec kv
	shift
	{
		echo "[server]"
		echo "listen = $RDMAD_SRV_ADDR:$port"
		for l in "$@"; do
			sec=${l%%.*}
			kv=${l#*.}
			printf '[%s]\n%s\n' "$sec" "$kv"
		done
	} >"$T/rdmad.ini"
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

# rdmad_start [CONF [LOG]]: start rdmad as the server host, wait until it
# listens on the port of its config; sets RDMAD_PID and RDMAD_CONF.
rdmad_start() {
	local conf=${1:-$T/rdmad.ini} logf=${2:-$T/rdmad.log} port
	[ -x "$RDMAD" ] || fail "rdmad not built ($RDMAD)"
	port=$(sed -n 's/^listen *= *.*:\([0-9]*\) *$/\1/p' "$conf" | head -1)
	[ -n "$port" ] || fail "no listen ADDRESS:PORT in $conf"
	srv exec "$RDMAD" -c "$conf" >"$logf" 2>&1 &
	RDMAD_PID=$!
	RDMAD_CONF=$conf
	wait_listen "$port"
	kill -0 "$RDMAD_PID" 2>/dev/null || fail "rdmad exited at start (log: $logf): $(tail -3 "$logf")"
}

# wait_log PATTERN SECS [FILE]: wait until FILE (rdmad's log) has a line
# matching PATTERN (grep basic regex).
wait_log() {
	local i f=${3:-$T/rdmad.log}
	for ((i = 0; i < $2 * 10; i++)); do
		grep -q -- "$1" "$f" && return 0
		sleep 0.1
	done
	tail -20 "$f" >&2
	fail "rdmad did not log '$1' within $2s"
}

# rdmad_alive: fail unless the rdmad of rdmad_start still runs.
rdmad_alive() {
	kill -0 "$RDMAD_PID" 2>/dev/null || fail "rdmad (pid $RDMAD_PID) died: $(tail -5 "$T/rdmad.log")"
}
