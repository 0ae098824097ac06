# shellcheck shell=bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/lib.sh - the helpers every suite needs, defined once.  Sourced by
# tests/rdma/lib.sh (and through it by the hostile and systemd suites),
# by tests/fabric/lib.sh on this machine, and by every job the fabric
# hands to a guest (the source tree is at the same path there), so a
# helper that must run inside a host (rdma resource show, /proc) is the
# same code whether a test runs in the guest or drives one from outside.
# Functions only: no variable is required and nothing runs at source time.
#
#   sleep SECS               shadows /bin/sleep for a plain number of
#                            seconds: read's timeout on a FIFO nobody
#                            writes (opened once a shell), no process (in
#                            a TCG guest each one started costs ~0.1 s of
#                            CPU, and the tests' wait loops sleep 0.1 s a
#                            turn); anything else goes to /bin/sleep
#   log MSG, fail MSG        a "# " note on stderr; FAIL: and exit 1
#   now_ms                   the wall clock in milliseconds
#   since T0                 seconds (one decimal) since T0 (date +%s.%N)
#   cm_listening PORT [SECS] true once something listens for rdma_cm on
#                            PORT (waits up to SECS, default 20)
#   wait_listen PORT [SECS]  the same, or the test fails
#   rdma_res_counts PID [RES...]  "qp=N cq=N mr=N pd=N cm_id=N" of process
#                            PID (RES chooses; "fd" counts its open files)
#   res_diff HAVE WANT       the resources whose counts differ
#   wait_res_counts PID WANT [SECS]  until rdma_res_counts PID (of WANT's
#                            resources) equals WANT, or fail naming each
#   wait_secs SECS           SECS, or $RDMAD_WAIT_FLOOR if longer: the
#                            deadline of every wait helper here
#   log_has PATTERN SECS FILE  true once FILE has a line matching PATTERN
#   log_has_n PATTERN N SECS FILE  true once FILE has N lines matching it
#   ini_text LISTEN [LINE...]  an rdmad config: [server] listen = LISTEN and
#                            one "section.key = value" LINE a key
#   prom_sum FILE NAME [LABEL...]  the sum of the samples of NAME in the
#                            Prometheus text FILE ("-": stdin) whose labels
#                            contain every LABEL; 0 when there are none
#   json_get FILE EXPR       the Python expression EXPR over the JSON
#                            document in FILE (as d)
#   tls_ca DIR NAME          a self-signed CA, DIR/NAME.key and .crt (P-256)
#   tls_leaf DIR NAME CA [EXT]  a P-256 key and a certificate NAME signed by
#                            CA (EXT: an openssl extension line, default
#                            basicConstraints=CA:FALSE); fail on error
#   bcrypt_hash PW ROUNDS    a bcrypt hash of PW (ROUNDS 32: cost 05)
#   cpu_ticks PID            its user + system CPU time, in clock ticks
#   proc_status PID KEY      a field of /proc/PID/status (VmRSS, VmHWM in
#                            kB; voluntary_ctxt_switches...)
#   run_rc WANT NAME CMD...  run CMD (stdout $T/NAME.out, stderr
#                            $T/NAME.err); fail unless it exits WANT

sleep() {
	local f
	if [ $# = 1 ] && [[ $1 =~ ^([0-9]+|[0-9]*\.[0-9]+)$ ]]; then
		if [ -z "${RDMAD_NAP_FD:-}" ] || ! { : <&"$RDMAD_NAP_FD"; } 2>/dev/null; then
			f=${TMPDIR:-/tmp}/rdmad-nap.$BASHPID.$RANDOM
			mkfifo -m 600 "$f" 2>/dev/null && exec {RDMAD_NAP_FD}<>"$f" ||
				{ command sleep "$1"; return; }
			command rm -f "$f"
		fi
		read -r -t "$1" -u "$RDMAD_NAP_FD" _
		return 0
	fi
	command sleep "$@"
}

log() { printf '# %s\n' "$*" >&2; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

# Milliseconds of the wall clock: for deadlines that hold however slow
# each step of a wait loop is (a TCG guest takes seconds per iteration).
now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }

# wait_secs SECS: the deadline a wait helper (log_has, log_has_n,
# wait_log, wait_res_counts, wait_qps, wait_idle) gives a condition: SECS,
# or $RDMAD_WAIT_FLOOR when that is longer.  A deadline only tells a hang
# from a wait; a suite whose guest shares the machine with others sets
# the floor (the rdma suite: 60 s; CI's landing run once gave its guest
# a third of a core, and steps of 3 s took 19).
wait_secs() { local f=${RDMAD_WAIT_FLOOR:-0}; echo $(($1 > f ? $1 : f)); }

since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# cm_listening PORT [SECS [PID]]: true once an rdma_cm listener on PORT
# (of process PID when given) shows up in `rdma resource show cm_id`.
cm_listening() {
	local port=$1 secs=${2:-20} i who=""
	[ -n "${3:-}" ] && who="pid $3 .*"
	local re="state LISTEN .*${who}src-addr [^ ]*:$port( |\$)" line
	for ((i = 0; i < secs * 10; i++)); do
		while read -r line; do
			[[ $line =~ $re ]] && return 0
		done <<<"$(rdma resource show cm_id 2>/dev/null)"
		sleep 0.1
	done
	return 1
}

wait_listen() {
	cm_listening "$@" || fail "nothing listens on rdma_cm port $1 after ${2:-20}s"
}

# rdma_res_counts PID [qp cq mr pd cm_id fd]...: "qp=N cq=N ..." of PID
# (default the five RDMA kinds).  One `rdma -b -` for every kind and the
# counting in bash: in a TCG guest each process started costs ~0.1 s of
# CPU, and the tests poll this every 0.1 s while they wait (a call took
# 1.8 s of CPU with a pipeline a kind; measured).  A kind is told by its
# id key: cm-idn (a cm_id line also has lqpn), lqpn, cqn, mrn (an mr line
# also has pdn), pdn.
rdma_res_counts() {
	local pid=$1 r line cmds="" out="" fds
	local -A n=()
	shift
	[ $# -gt 0 ] || set -- qp cq mr pd cm_id
	for r in "$@"; do
		n[$r]=0
		[ "$r" = fd ] || cmds+="resource show $r"$'\n'
	done
	if [ -n "$cmds" ]; then
		while read -r line; do
			[[ "$line " == *" pid $pid "* ]] || continue
			case " $line " in
			*" cm-idn "*) r=cm_id ;;
			*" lqpn "*) r=qp ;;
			*" cqn "*) r=cq ;;
			*" mrn "*) r=mr ;;
			*" pdn "*) r=pd ;;
			*) continue ;;
			esac
			[ -n "${n[$r]+set}" ] && n[$r]=$((n[$r] + 1))
		done <<<"$(printf '%s' "$cmds" | rdma -b - 2>/dev/null)"
	fi
	for r in "$@"; do
		if [ "$r" = fd ]; then
			fds=("/proc/$pid/fd/"*)
			[ -e "${fds[0]}" ] || fds=()
			out+="fd=${#fds[@]} "
		else
			out+="$r=${n[$r]} "
		fi
	done
	echo "${out% }"
}

# res_diff HAVE WANT (both from rdma_res_counts): "mr 5 (want 4), qp 1
# (want 0)"; empty when equal.
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

wait_res_counts() {
	local pid=$1 want=$2 secs now="" end w res=()
	secs=$(wait_secs "${3:-20}")
	for w in $want; do res+=("${w%%=*}"); done
	end=$(($(now_ms) + secs * 1000))
	while :; do
		now=$(rdma_res_counts "$pid" "${res[@]}")
		[ "$now" = "$want" ] && return 0
		[ "$(now_ms)" -lt "$end" ] || break
		sleep 0.1
	done
	fail "RDMA resources of pid $pid not back after ${secs}s: $(res_diff "$now" "$want")"
}

# wait_qps PID N [SECS]: wait until process PID holds at least N QPs
# (sessions that are open, as `rdma resource show qp` lists them).
wait_qps() {
	local pid=$1 want=$2 secs end have=0
	secs=$(wait_secs "${3:-20}")
	end=$(($(now_ms) + secs * 1000))
	while [ "$(now_ms)" -lt "$end" ]; do
		have=$(rdma_res_counts "$pid" qp)
		have=${have#qp=}
		[ "$have" -ge "$want" ] && return 0
		sleep 0.1
	done
	fail "pid $pid holds $have QPs after ${secs}s, want at least $want"
}

log_has() { log_has_n "$1" 1 "$2" "$3"; }

log_has_n() {
	local end
	end=$(($(now_ms) + $(wait_secs "$3") * 1000))
	while :; do
		[ "$(grep -c -- "$1" "$4" 2>/dev/null)" -ge "$2" ] && return 0
		[ "$(now_ms)" -lt "$end" ] || return 1
		sleep 0.1
	done
}

ini_text() {
	local l
	printf '[server]\nlisten = %s\n' "$1"
	shift
	for l in "$@"; do
		printf '[%s]\n%s\n' "${l%%.*}" "${l#*.}"
	done
}

prom_sum() {
	local f=$1 name=$2
	shift 2
	[ "$f" = - ] && f=/dev/stdin
	awk -v name="$name" -v want="$*" '
	BEGIN { n = split(want, w, " ") }
	/^#/ { next }
	index($0, name "{") == 1 || $1 == name {
		ok = 1
		for (i = 1; i <= n; i++) if (index($1, w[i]) == 0) ok = 0
		if (ok) s += $NF
	}
	END { printf "%.17g\n", s + 0 }' "$f"
}

# The tests' PKI: P-256 keys (an RSA 2048 key and its handshakes cost
# seconds of CPU in a TCG guest).  Errors in DIR/openssl.err.
tls_ca() {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
		-subj "/CN=$2" -keyout "$1/$2.key" -out "$1/$2.crt" 2>"$1/openssl.err" ||
		fail "openssl: CA $2: $(cat "$1/openssl.err")"
}
tls_leaf() {
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$2" \
		-keyout "$1/$2.key" -out "$1/$2.csr" 2>"$1/openssl.err" ||
		fail "openssl req $2: $(cat "$1/openssl.err")"
	printf '%s\n' "${4:-basicConstraints=CA:FALSE}" >"$1/$2.ext"
	openssl x509 -req -in "$1/$2.csr" -CA "$1/$3.crt" -CAkey "$1/$3.key" \
		-CAcreateserial -days 2 -extfile "$1/$2.ext" -out "$1/$2.crt" \
		2>"$1/openssl.err" || fail "openssl x509 $2: $(cat "$1/openssl.err")"
}
bcrypt_hash() {
	/usr/bin/python3 -W ignore -c 'import crypt, sys
print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=int(sys.argv[2]))))' "$1" "$2"
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
proc_status() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

run_rc() {
	local want=$1 name=$2 rc
	shift 2
	"$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	[ "$rc" = "$want" ] ||
		fail "$name: exit $rc, want $want; stderr: $(cat "$T/$name.err")"
}

# Lines before the document's first "{" line (such as rdma-probe's
# messages on stderr) are skipped; a missing key or bad JSON fails.
json_get() {
	python3 - "$1" "$2" <<'PY' || fail "JSON $2 not in $1: $(head -c 2000 "$1")"
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index('\n{') + 1 if not text.startswith('{') else 0:])
print(eval(sys.argv[2], {"d": d}))
PY
}

# The lifecycle of the rdmad under test, for the suites that define
# RDMAD, T, srv and rdmad_wait_up PORT (tests/rdma/lib.sh, tests/host/lib.sh).
# cleanup_jobs: kill the test's background jobs (the suites' EXIT trap):
# TERM, then KILL for those still there after wait_secs 15, each named on
# stderr (a daemon that ignores TERM, a client stuck in the kernel): an
# unbounded wait here once could hold a test to the suite's deadline.
cleanup_jobs() {
	local p left end
	left=$(jobs -p)
	[ -n "$left" ] || return 0
	# shellcheck disable=SC2086 # pids
	kill $left 2>/dev/null
	end=$(($(now_ms) + $(wait_secs 15) * 1000))
	while [ "$(now_ms)" -lt "$end" ]; do
		left=$(for p in $left; do kill -0 "$p" 2>/dev/null && echo "$p"; done)
		[ -n "$left" ] || break
		sleep 0.1
	done
	for p in $left; do
		printf '# cleanup: %s (%s) still running %s s after TERM: killed\n' \
			"$p" "$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-120)" "$(wait_secs 15)" >&2
		kill -KILL "$p" 2>/dev/null
	done
	wait 2>/dev/null
}

# rdmad_start [CONF [LOG]]: start $RDMAD as the server host (srv), wait until
# it serves the port of its config (the suite's rdmad_wait_up PORT); sets
# RDMAD_PID, RDMAD_CONF and RDMAD_LOG.
rdmad_start() {
	local conf=${1:-$T/rdmad.ini} logf=${2:-$T/rdmad.log} port
	[ -x "$RDMAD" ] || fail "rdmad not built ($RDMAD)"
	port=$(sed -n 's/^listen *= *.*:\([0-9]*\) *$/\1/p' "$conf" | head -1)
	[ -n "$port" ] || fail "no listen ADDRESS:PORT in $conf"
	srv exec "$RDMAD" -c "$conf" >"$logf" 2>&1 &
	RDMAD_PID=$!
	RDMAD_CONF=$conf
	RDMAD_LOG=$logf
	rdmad_wait_up "$port"
	kill -0 "$RDMAD_PID" 2>/dev/null || fail "rdmad exited at start (log: $logf): $(tail -3 "$logf")"
}

# wait_log PATTERN SECS [FILE]: wait until FILE (rdmad's log) has a line
# matching PATTERN (grep basic regex).
wait_log() {
	local f=${3:-$T/rdmad.log}
	log_has "$1" "$2" "$f" && return 0
	tail -20 "$f" >&2
	fail "rdmad did not log '$1' within $(wait_secs "$2")s"
}

# rdmad_reload [SECS]: SIGHUP the rdmad of rdmad_start and wait (SECS,
# default 10) until its log has one more "reload: configuration re-read"
# line than before (an earlier reload's line does not count).
rdmad_reload() {
	local n i
	n=$(grep -c 'reload: configuration re-read' "$T/rdmad.log")
	kill -HUP "$RDMAD_PID"
	for ((i = 0; i < ${1:-10} * 10; i++)); do
		[ "$(grep -c 'reload: configuration re-read' "$T/rdmad.log")" -gt "$n" ] && return 0
		sleep 0.1
	done
	tail -5 "$T/rdmad.log" >&2
	fail "rdmad did not finish a reload within ${1:-10}s"
}

# rdmad_alive: fail unless the rdmad of rdmad_start still runs.
rdmad_alive() {
	kill -0 "$RDMAD_PID" 2>/dev/null || fail "rdmad (pid $RDMAD_PID) died: $(tail -5 "$T/rdmad.log")"
}
