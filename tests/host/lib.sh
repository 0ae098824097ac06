# shellcheck shell=bash
# tests/host/lib.sh - helpers for the host suite: rdmad with its RDMA layer
# faked at link time (tests/unit/fake: rdmad-fake), run on the build
# machine, no guest.  For what needs no real verbs: HTTP, TLS, auth,
# configuration refusals, reloads, /probe of the same process (every
# address resolves to the fake's one device, inside the process: an RDMA
# peer is this rdmad's own listener, never another process).
# $RDMAD_BUILD_DIR and $RDMAD_SOURCE_DIR as in the rdma suite (meson sets
# them); $T is this test's scratch directory, kept when it fails.
# The helpers every suite shares are in tests/lib.sh, sourced here.

set -u
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${RDMAD_BUILD_DIR:?RDMAD_BUILD_DIR not set}"
: "${RDMAD_SOURCE_DIR:?RDMAD_SOURCE_DIR not set}"
T=$(mktemp -d "${TMPDIR:-/tmp}/rdmad-host.XXXXXX")

RDMAD=$RDMAD_BUILD_DIR/tests/unit/fake/rdmad-fake
REAL_RDMAD=$RDMAD_BUILD_DIR/src/daemon/rdmad
CTL=$RDMAD_BUILD_DIR/src/ctl/rdmadctl
RDMAD_SRV_ADDR=127.0.0.1

srv() { "$@"; }

host_cleanup() {
	local rc=$?
	cleanup_jobs
	if [ "$rc" = 0 ]; then rm -rf "$T"; else echo "# kept: $T" >&2; fi
}
trap host_cleanup EXIT

# rdmad_wait_up PORT: rdmad_start's wait (tests/lib.sh): the fake has no
# device resources to list; rdmad says it is ready once it listens.
rdmad_wait_up() {
	log_has 'ready:' 20 "$RDMAD_LOG" && return 0
	tail -5 "$RDMAD_LOG" >&2
	fail "rdmad-fake not ready within 20s (port $1)"
}

# need_root WHAT: skip the test (exit 77, meson's skip) unless it runs as
# root, which WHAT needs (CI runs as root).
need_root() {
	[ "$(id -u)" = 0 ] && return 0
	echo "# skipped: $1 needs root" >&2
	rm -rf "$T"
	exit 77
}

# real_start_traced CONF OUT: start the real rdmad on CONF under strace
# (its output in OUT, its openat calls in OUT.trace), its exit status in
# rc; fail if it went for RDMA: an infiniband or rdma_cm path (here
# /sys/class/infiniband*, on a host with a device /dev/infiniband too).
# For a start that must refuse before any RDMA resource.
real_start_traced() {
	# LeakSanitizer cannot run under ptrace: off for this start
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		timeout 120 strace -f -qq -e trace=openat -o "$2.trace" \
		"$REAL_RDMAD" -c "$1" >"$2" 2>&1
	rc=$?
	[ -s "$2.trace" ] || fail "strace wrote no trace of the start on $1"
	! grep -q 'infiniband\|/rdma_cm' "$2.trace" ||
		fail "the start on $1 went for RDMA: $(grep 'infiniband\|/rdma_cm' "$2.trace" | head -2)"
}

# free_port: a TCP port free on the loopback now (the kernel's pick), for
# [http] listen: the host suite's tests run side by side.
free_port() {
	python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# http_get NAME [CURL ARG...]: one request; its status on stdout (000:
# no HTTP answer), its headers in $T/NAME.hdr, its body in $T/NAME.body,
# curl's complaints in $T/NAME.err.
http_get() {
	local n=$1
	shift
	curl -s -o "$T/$n.body" -D "$T/$n.hdr" -w '%{http_code}' --max-time 30 "$@" \
		>"$T/$n.code" 2>"$T/$n.err"
	cat "$T/$n.code"
}
# http_hdr NAME FIELD: the value of header FIELD in $T/NAME.hdr
http_hdr() { grep -i "^$2:" "$T/$1.hdr" | tr -d '\r' | sed 's/^[^:]*: *//'; }

# The TLS tests' endpoint.  https_conf [LINE...]: in $C ($T/tls) a CA
# "ca" and the server's certificate (SAN IP 127.0.0.1), served from
# cur.crt and cur.key; user prom, password 's3cret pw' (bcrypt cost 04:
# $H); $T/rdmad.ini with [http] on a free port $hp (url
# https://127.0.0.1:$hp), web_config $C/web.yml (web_yml ""), allow
# 127.0.0.1/32, and each LINE.
https_conf() {
	C=$T/tls
	mkdir -p "$C"
	command -v openssl >/dev/null || fail "no openssl command"
	tls_ca "$C" ca
	tls_leaf "$C" server ca "subjectAltName=IP:127.0.0.1"
	cp "$C/server.crt" "$C/cur.crt"
	cp "$C/server.key" "$C/cur.key"
	H=$(bcrypt_hash 's3cret pw' 16)
	case $H in '$2b$04$'*) ;; *) fail "python3 crypt gave no bcrypt hash: '$H'" ;; esac
	web_yml ""
	hp=$(free_port)
	url=https://127.0.0.1:$hp
	HTTPS_AUTH=(--cacert "$C/ca.crt" -u 'prom:s3cret pw')
	ini_text "$RDMAD_SRV_ADDR:7471" "http.listen = 127.0.0.1:$hp" "http.web_config = $C/web.yml" \
		"http.allow = 127.0.0.1/32" "$@" >"$T/rdmad.ini"
}
# web_yml TLS-LINES [USER-LINES]: $C/web.yml: cur.crt and cur.key, the
# lines of TLS-LINES in tls_server_config, user prom and USER-LINES.
web_yml() {
	cat >"$C/web.yml" <<YML
tls_server_config:
  cert_file: cur.crt
  key_file: cur.key
$1
basic_auth_users:
  prom: '$H'
${2:-}
YML
}
# https_ok [CURL ARG...]: a request with prom's password (and whatever
# else HTTPS_AUTH holds: a test with client certificates adds its own);
# fails (curl -f) unless it got a 2xx.
https_ok() { curl -sf --max-time 30 "${HTTPS_AUTH[@]}" "$@"; }
# https_refused REASON: rdmad_http_requests_refused_total{reason=REASON}
https_refused() {
	https_ok "$url/metrics" | prom_sum - rdmad_http_requests_refused_total "reason=\"$1\""
}
