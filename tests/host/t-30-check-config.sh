#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# One check for the start, a reload and --check-config (rdmad_stage.h).
#  1. Every refusal fixture below is fed to all three, at the same path:
#     rdmad --check-config and a start (rdmad -c, under strace), both of
#     the real rdmad, and a reload of a running rdmad-fake (the file
#     written over its configuration, then SIGHUP).  The three must give
#     the same message; the check and the start exit 78, the start before
#     it tries anything of RDMA (no infiniband or rdma_cm path in its
#     trace: a start that went on would look for /sys/class/infiniband*
#     here, /dev/infiniband on a host with a device), the reload is
#     refused and rdmad keeps serving (a /probe of itself).  The fixtures
#     cover each thing the three read: the file's keys and rules, the web
#     config (missing, unknown key, a clear-text password, a key that is
#     not the certificate's), the targets file (missing, a bad line), the
#     inventory (a contradiction, no line for this rdmad) and the
#     capacity the peers need.
#  2. A reload reads off the loop: with its targets file a FIFO that no
#     one writes yet, the read waits, and meanwhile rdmad answers /status
#     and a /probe of itself; once the file is written, the reload
#     applies and `rdmadctl mesh` lists the new targets' peer.
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"

port=7791
http=127.0.0.1:$(free_port)
A=$RDMAD_SRV_ADDR
base_lines=("http.listen = $http")

ini_text "$A:$port" "${base_lines[@]}" >"$T/rdmad.ini"
rdmad_start
rpid=$RDMAD_PID
# probe_self NAME: a /probe of rdmad-fake's own listener must succeed.
probe_self() {
	curl -sf --max-time 60 "http://$http/probe?target=$A:$port" >"$T/$1.probe" &&
		grep -q '^probe_success 1$' "$T/$1.probe" ||
		fail "$1: /probe of rdmad itself did not succeed: $(cat "$T/$1.probe")"
}

# The fixtures' files.
C=$T/pki
mkdir -p "$C"
tls_ca "$C" ca
tls_leaf "$C" srv ca
tls_leaf "$C" other ca
printf 'bogus_key: 1\n' >"$T/unknown.yml"
printf 'basic_auth_users:\n  prom: s3cret\n' >"$T/clear.yml"
printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' \
	"$C/srv.crt" "$C/other.key" >"$T/mismatch.yml"
printf '%s:%s\nnot an address at all\n' "$A" 7792 >"$T/badline"
printf '%s:%s host=ha tor=t1\n%s:%s host=ha tor=t2\n' "$A" $port "$A" 7792 >"$T/contra"
printf '%s:%s host=hb tor=t1\n%s:%s host=hc tor=t1\n' "$A" 7792 "$A" 7793 >"$T/noself"
for ((i = 1; i <= 70; i++)); do echo "$A:$((8000 + i))"; done >"$T/many"

# NAME|LINE;LINE...: a fixture's keys over the base configuration.
fixtures=(
	"unknown-key|server.max_conections = 5"
	"rule|timeouts.session = 5s;timeouts.close = 10s"
	"web-missing|http.web_config = $T/absent.yml"
	"web-unknown-key|http.web_config = $T/unknown.yml"
	"web-clear-password|http.web_config = $T/clear.yml"
	"web-key-mismatch|http.web_config = $T/mismatch.yml"
	"targets-missing|mesh.targets = $T/absent"
	"targets-bad-line|mesh.targets = $T/badline"
	"inventory-contradiction|mesh.targets = $T/contra"
	"inventory-no-self|mesh.targets = $T/noself"
	"capacity|server.max_connections = 64;mesh.targets = $T/many"
)

# answer FILE: the message after "configuration error: " or
# "reload refused: " in FILE's last such line.
answer() {
	sed -n -e 's/.*configuration error: //p' \
		-e 's/.*reload refused: \(.*\); still running with the previous configuration$/\1/p' \
		"$1" | tail -1
}

n=0
for f in "${fixtures[@]}"; do
	t0=$(now_ms)
	name=${f%%|*}
	IFS=';' read -r -a lines <<<"${f#*|}"
	ini_text "$A:$port" "${base_lines[@]}" "${lines[@]}" >"$T/rdmad.ini"

	"$REAL_RDMAD" --check-config -c "$T/rdmad.ini" >"$T/$name.check" 2>&1
	rc=$?
	[ $rc = 78 ] || fail "$name: --check-config exit $rc, want 78: $(cat "$T/$name.check")"
	want=$(answer "$T/$name.check")
	[ -n "$want" ] || fail "$name: --check-config gave no message: $(cat "$T/$name.check")"

	real_start_traced "$T/rdmad.ini" "$T/$name.start"
	[ $rc = 78 ] || fail "$name: the start exit $rc, want 78: $(tail -3 "$T/$name.start")"
	[ "$(answer "$T/$name.start")" = "$want" ] ||
		fail "$name: the start said '$(answer "$T/$name.start")', --check-config '$want'"

	before=$(grep -c 'reload refused: ' "$T/rdmad.log")
	kill -HUP "$rpid"
	for ((i = 0; i < 600; i++)); do
		[ "$(grep -c 'reload refused: ' "$T/rdmad.log")" -gt "$before" ] && break
		sleep 0.1
	done
	got=$(grep 'reload refused: ' "$T/rdmad.log" | tail -1 | sed 's/.*reload refused: \(.*\); still running with the previous configuration$/\1/')
	[ "$(grep -c 'reload refused: ' "$T/rdmad.log")" -gt "$before" ] ||
		fail "$name: no reload refused within 60 s: $(tail -3 "$T/rdmad.log")"
	[ "$got" = "$want" ] || fail "$name: the reload said '$got', --check-config '$want'"
	rdmad_alive
	log "$name: all three ($(($(now_ms) - t0)) ms): $want"
	n=$((n + 1))
done
probe_self after
log "$n fixtures: the same refusal from --check-config, the start (exit 78, no RDMA tried) and a reload"

# 2. Off the loop: a reload whose targets file is a FIFO nobody writes yet.
F=$T/fifo/targets
mkdir -p "$T/fifo"
mkfifo "$F" || fail "mkfifo $F"
# on a failure, open the FIFO for the reader, or a blocked loop never
# takes the SIGTERM of the cleanup
trap 'timeout 10 cp /dev/null "$F" 2>/dev/null; host_cleanup' EXIT
ini_text "$A:$port" "${base_lines[@]}" "mesh.targets = $F" "mesh.interval = 200ms" >"$T/rdmad.ini"
kill -HUP "$rpid"
# the read waits in open(): the loop must go on without it
curl -sf --max-time 20 "http://$http/status" >"$T/status.json" ||
	fail "/status did not answer while a reload read its targets"
probe_self during
grep -q 'reload: configuration re-read' "$T/rdmad.log" &&
	fail "the reload applied before its targets file was written"
printf '%s:%s\n%s:%s\n' "$A" $port "$A" 7792 >"$T/targets"
# the writer waits for the reader: bounded, in case it never opens it
timeout 60 cp "$T/targets" "$F" || fail "rdmad never read its targets FIFO"
trap host_cleanup EXIT
wait_log 'reload: configuration re-read' 60
"$CTL" -a "$http" mesh >"$T/mesh.txt" 2>&1 || fail "rdmadctl mesh: $(cat "$T/mesh.txt")"
grep -q "$A:7792" "$T/mesh.txt" || fail "the reloaded targets' peer is not probed: $(cat "$T/mesh.txt")"
log "a reload waiting on its targets file left the loop serving; applied once written"
exit 0
