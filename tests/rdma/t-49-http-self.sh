#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The HTTP endpoint about itself: gzip when Accept-Encoding asks for it
# (Content-Encoding, Vary; the decompressed /metrics has the metric names
# of the plain one; gzip;q=0 and no header: identity; /status, /peers,
# /mesh too), the landing page at / (rdmad, its version, a link to each
# endpoint; 404 stays for unknown paths), and the self metrics: process_*
# against /proc, the registered memory and its cap, the reload gauges
# through a refused and a good reload.
# shellcheck source=tests/rdma/lib.sh
source "$(dirname "$0")/lib.sh"

need probe
port=7449
http=127.0.0.1:9449
url=http://$http

rdmad_conf $port "http.listen = $http" "limits.max_registered_bytes = 256m" \
	"counters.interval = 1s"
t0=$(date +%s)
rdmad_start
rpid=$RDMAD_PID

# --- gzip -------------------------------------------------------------
# get NAME [CURL ARG...]: headers in $T/NAME.hdr, the raw body in $T/NAME.body
get() {
	local n=$1
	shift
	curl -s -D "$T/$n.hdr" -o "$T/$n.body" "$@" || fail "curl $*: failed"
	grep -q '^HTTP/1.1 200' "$T/$n.hdr" || fail "curl $*: $(head -1 "$T/$n.hdr")"
}
hdr() { grep -i "^$2:" "$T/$1.hdr" | tr -d '\r' | sed 's/^[^:]*: *//'; }
names() { grep -v '^#' "$1" | sed 's/[{ ].*//' | sort -u; }

# The port counters' first pass adds rdmad_port_events_total (a series
# appears once its counter is read): compare the two answers after it.
for ((i = 0; i < 100; i++)); do
	get plain "$url/metrics"
	grep -q '^rdmad_port_events_total{' "$T/plain.body" && break
	sleep 0.2
done
grep -q '^rdmad_port_events_total{' "$T/plain.body" || fail "no rdmad_port_events_total in /metrics after 20 s"
[ -z "$(hdr plain Content-Encoding)" ] || fail "no Accept-Encoding, yet Content-Encoding: $(hdr plain Content-Encoding)"
[ "$(hdr plain Vary)" = Accept-Encoding ] || fail "plain /metrics: Vary '$(hdr plain Vary)'"
get gz "$url/metrics" -H 'Accept-Encoding: gzip'
[ "$(hdr gz Content-Encoding)" = gzip ] || fail "Accept-Encoding gzip: Content-Encoding '$(hdr gz Content-Encoding)'"
[ "$(hdr gz Vary)" = Accept-Encoding ] || fail "gzip /metrics: Vary '$(hdr gz Vary)'"
[ "$(hdr gz Content-Length)" = "$(stat -c %s "$T/gz.body")" ] || fail "gzip /metrics: Content-Length is not the compressed size"
gzip -dc <"$T/gz.body" >"$T/gz.txt" || fail "the gzip body does not decompress"
names "$T/plain.body" >"$T/plain.names"
names "$T/gz.txt" >"$T/gz.names"
diff "$T/plain.names" "$T/gz.names" >&2 || fail "the decompressed /metrics has other metric names than the plain one"
[ "$(wc -l <"$T/plain.names")" -gt 30 ] || fail "too few metric names: $(wc -l <"$T/plain.names")"
log "/metrics: $(stat -c %s "$T/plain.body") bytes plain, $(stat -c %s "$T/gz.body") gzip"
get q0 "$url/metrics" -H 'Accept-Encoding: gzip;q=0, identity'
[ -z "$(hdr q0 Content-Encoding)" ] || fail "gzip;q=0 yet Content-Encoding: $(hdr q0 Content-Encoding)"
get bad "$url/metrics" -H 'Accept-Encoding: gzip;q=2'
[ -z "$(hdr bad Content-Encoding)" ] || fail "a malformed q yet Content-Encoding: $(hdr bad Content-Encoding)"
get curl "$url/metrics" --compressed
[ "$(hdr curl Content-Encoding)" = gzip ] || fail "curl --compressed: Content-Encoding '$(hdr curl Content-Encoding)'"
curl -s -I -H 'Accept-Encoding: gzip' "$url/metrics" | tr -d '\r' >"$T/head.hdr"
grep -qi '^Content-Encoding: gzip$' "$T/head.hdr" || fail "HEAD with gzip: no Content-Encoding: $(cat "$T/head.hdr")"
for p in /status /peers "/status?format=text" /mesh; do
	get one "$url$p" -H 'Accept-Encoding: gzip'
	[ "$(hdr one Content-Encoding)" = gzip ] || fail "$p: not gzip-compressed when asked"
	gzip -t <"$T/one.body" || fail "$p: the body is no gzip stream"
done
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
curl -s -D "$T/nf.hdr" -o /dev/null -H 'Accept-Encoding: gzip' "$url/nothing"
grep -q '^HTTP/1.1 404' "$T/nf.hdr" || fail "unknown path: $(head -1 "$T/nf.hdr")"

# --- the landing page -------------------------------------------------
get index "$url/"
[[ $(hdr index Content-Type) == text/html* ]] || fail "/: Content-Type '$(hdr index Content-Type)'"
version=$("$RDMAD" --version | awk '{print $2}')
grep -q "<h1>rdmad $version</h1>" "$T/index.body" || fail "/ does not name rdmad $version: $(cat "$T/index.body")"
for p in /metrics /status /peers /mesh /probe; do
	grep -q "<li><a href=\"$p\">$p</a>: ..*</li>" "$T/index.body" || fail "/ does not link $p with its line"
done
[ "$(code -I "$url/")" = 200 ] || fail "HEAD /: want 200"
[ "$(code -X POST "$url/")" = 405 ] || fail "POST /: want 405"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$T/index.body" 2>&1 ||
	fail "/ is not well-formed"

# --- self metrics -----------------------------------------------------
m() { awk -v n="$1" '$1 == n {print $2}' "$T/self.prom"; }
"$CTL" -a $http metrics >"$T/self.prom" || fail "rdmadctl metrics failed"
now=$(date +%s)
st=$(m process_start_time_seconds)
# (awk, not python3: each interpreter start is a second or more in a TCG guest)
awk -v st="$st" -v a="$t0" -v b="$now" 'BEGIN { exit !(st != "" && a - 2 <= st && st <= b + 1) }' ||
	fail "process_start_time_seconds $st not between the start ($t0) and now ($now)"
fds=$(m process_open_fds)
real=$(ls /proc/$rpid/fd | wc -l)
[ "${fds:-0}" -gt 0 ] && [ $((fds - real)) -le 4 ] && [ $((real - fds)) -le 4 ] ||
	fail "process_open_fds $fds, /proc/$rpid/fd has $real"
max=$(awk '/^Max open files/ {print $4}' /proc/$rpid/limits)
[ "$(m process_max_fds)" = "$max" ] || fail "process_max_fds $(m process_max_fds), limits say $max"
rss=$(m process_resident_memory_bytes)
vm=$(m process_virtual_memory_bytes)
[ "${rss:-0}" -gt 1000000 ] && [ "${vm:-0}" -gt "$rss" ] || fail "resident $rss, virtual $vm bytes"
cpu=$(m process_cpu_seconds_total)
awk -v c="$cpu" 'BEGIN { exit !(c != "" && c > 0 && c < 600) }' ||
	fail "process_cpu_seconds_total $cpu"
[ "$(m rdmad_registered_memory_max_bytes)" = $((256 << 20)) ] ||
	fail "rdmad_registered_memory_max_bytes $(m rdmad_registered_memory_max_bytes), want 256 MiB"
[ "$(m rdmad_build_info\{version=\"$version\"\})" = 1 ] || fail "no rdmad_build_info of $version"

# the memory a live session registers shows, and goes when it ends
probe_run long.out -s 1m -D 4 &
lpid=$!
for ((i = 0; i < 100; i++)); do
	reg=$(curl -s "$url/metrics" | awk '$1 == "rdmad_registered_memory_bytes" {print $2}')
	[ "${reg:-0}" -ge $((1 << 20)) ] && break
	sleep 0.1
done
[ "${reg:-0}" -ge $((1 << 20)) ] || fail "a 1 MiB session: rdmad_registered_memory_bytes $reg"
wait $lpid || fail "the 4 s probe failed: $(cat "$T/long.err")"
log "registered during a 1 MiB session: $reg bytes"

# the reload gauges: 1 since start, 0 after a refused reload, 1 again
[ "$(m rdmad_config_last_reload_successful)" = 1 ] || fail "reload gauge at start: $(m rdmad_config_last_reload_successful)"
ts0=$(m rdmad_config_last_reload_success_timestamp_seconds)
awk -v a="$ts0" -v b="$(m rdmad_start_time_seconds)" 'BEGIN { d = a - b; exit !(a != "" && d < 1 && d > -1) }' ||
	fail "reload timestamp $ts0 is not the start"
echo "max_conections = 5" >>"$T/rdmad.ini"
kill -HUP "$rpid"
wait_log "reload refused: $T/rdmad.ini:.*max_conections" 20
"$CTL" -a $http metrics >"$T/self.prom"
[ "$(m rdmad_config_last_reload_successful)" = 0 ] || fail "after a refused reload: $(m rdmad_config_last_reload_successful)"
[ "$(m rdmad_config_last_reload_success_timestamp_seconds)" = "$ts0" ] || fail "a refused reload moved the timestamp"
sleep 1.1
sed -i '/max_conections/d' "$T/rdmad.ini"
kill -HUP "$rpid"
wait_log 'reload: configuration re-read' 20
"$CTL" -a $http metrics >"$T/self.prom"
[ "$(m rdmad_config_last_reload_successful)" = 1 ] || fail "after a good reload: $(m rdmad_config_last_reload_successful)"
awk -v a="$ts0" -v b="$(m rdmad_config_last_reload_success_timestamp_seconds)" 'BEGIN { exit !(b > a + 1) }' ||
	fail "a good reload did not move the timestamp: $ts0 -> $(m rdmad_config_last_reload_success_timestamp_seconds)"
rdmad_alive
log "gzip, the landing page, the self metrics and the reload gauges hold"
exit 0
