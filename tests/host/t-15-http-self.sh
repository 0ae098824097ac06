#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The HTTP endpoint about itself: gzip when Accept-Encoding asks for it
# (Content-Encoding, Vary; the decompressed /metrics has the metric names
# of the plain one; gzip;q=0, a malformed q and no header: identity;
# HEAD; /status, /peers, /mesh too), the landing page at / (rdmad, its
# version, a link to each endpoint; HEAD 200, POST 405, well-formed; 404
# stays for unknown paths), and the self metrics: the registered memory
# of a live session (a /probe of rdmad-fake's own listener) and its cap,
# process_* against /proc, the build info, the reload gauges through a
# refused and a good reload.
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"

hp=$(free_port)
http=127.0.0.1:$hp
url=http://$http
ini_text "$RDMAD_SRV_ADDR:7471" "http.listen = $http" "limits.max_registered_bytes = 256m" \
	"counters.interval = 1s" >"$T/rdmad.ini"
cat >>"$T/rdmad.ini" <<INI
[module.long]
size = 1m
iterations = 300
timeout = 60s
INI
t0=$(date +%s)
rdmad_start

# --- gzip -------------------------------------------------------------
# get NAME [CURL ARG...]: http_get, which must answer 200
get() {
	[ "$(http_get "$@")" = 200 ] || fail "curl ${*:2}: $(head -1 "$T/$1.hdr") $(cat "$T/$1.err")"
}
names() { grep -v '^#' "$1" | sed 's/[{ ].*//' | sort -u; }

get plain "$url/metrics"
[ -z "$(http_hdr plain Content-Encoding)" ] || fail "no Accept-Encoding, yet Content-Encoding: $(http_hdr plain Content-Encoding)"
[ "$(http_hdr plain Vary)" = Accept-Encoding ] || fail "plain /metrics: Vary '$(http_hdr plain Vary)'"
get gz "$url/metrics" -H 'Accept-Encoding: gzip'
[ "$(http_hdr gz Content-Encoding)" = gzip ] || fail "Accept-Encoding gzip: Content-Encoding '$(http_hdr gz Content-Encoding)'"
[ "$(http_hdr gz Vary)" = Accept-Encoding ] || fail "gzip /metrics: Vary '$(http_hdr gz Vary)'"
[ "$(http_hdr gz Content-Length)" = "$(stat -c %s "$T/gz.body")" ] || fail "gzip /metrics: Content-Length is not the compressed size"
gzip -dc <"$T/gz.body" >"$T/gz.txt" || fail "the gzip body does not decompress"
names "$T/plain.body" >"$T/plain.names"
names "$T/gz.txt" >"$T/gz.names"
diff "$T/plain.names" "$T/gz.names" >&2 || fail "the decompressed /metrics has other metric names than the plain one"
[ "$(wc -l <"$T/plain.names")" -gt 30 ] || fail "too few metric names: $(wc -l <"$T/plain.names")"
log "/metrics: $(stat -c %s "$T/plain.body") bytes plain, $(stat -c %s "$T/gz.body") gzip"
get q0 "$url/metrics" -H 'Accept-Encoding: gzip;q=0, identity'
[ -z "$(http_hdr q0 Content-Encoding)" ] || fail "gzip;q=0 yet Content-Encoding: $(http_hdr q0 Content-Encoding)"
get bad "$url/metrics" -H 'Accept-Encoding: gzip;q=2'
[ -z "$(http_hdr bad Content-Encoding)" ] || fail "a malformed q yet Content-Encoding: $(http_hdr bad Content-Encoding)"
get curl "$url/metrics" --compressed
[ "$(http_hdr curl Content-Encoding)" = gzip ] || fail "curl --compressed: Content-Encoding '$(http_hdr curl Content-Encoding)'"
get head "$url/metrics" -I -H 'Accept-Encoding: gzip'
[ "$(http_hdr head Content-Encoding)" = gzip ] || fail "HEAD with gzip: no Content-Encoding: $(cat "$T/head.hdr")"
for p in /status /peers "/status?format=text" /mesh; do
	get one "$url$p" -H 'Accept-Encoding: gzip'
	[ "$(http_hdr one Content-Encoding)" = gzip ] || fail "$p: not gzip-compressed when asked"
	gzip -t <"$T/one.body" || fail "$p: the body is no gzip stream"
done
[ "$(http_get nf -H 'Accept-Encoding: gzip' "$url/nothing")" = 404 ] || fail "unknown path: $(head -1 "$T/nf.hdr")"

# --- the landing page -------------------------------------------------
get index "$url/"
[[ $(http_hdr index Content-Type) == text/html* ]] || fail "/: Content-Type '$(http_hdr index Content-Type)'"
version=$("$RDMAD" --version | awk '{print $2}')
grep -q "<h1>rdmad $version</h1>" "$T/index.body" || fail "/ does not name rdmad $version: $(cat "$T/index.body")"
for p in /metrics /status /peers /mesh /probe; do
	grep -q "<li><a href=\"$p\">$p</a>: ..*</li>" "$T/index.body" || fail "/ does not link $p with its line"
done
[ "$(http_get ihead -I "$url/")" = 200 ] || fail "HEAD /: want 200"
[ "$(http_get ipost -X POST "$url/")" = 405 ] || fail "POST /: want 405"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$T/index.body" 2>&1 ||
	fail "/ is not well-formed"

# --- self metrics -----------------------------------------------------
m() { awk -v n="$1" '$1 == n {print $2}' "$T/self.prom"; }
reg() { curl -sf --max-time 30 "$url/metrics" | awk '$1 == "rdmad_registered_memory_bytes" {print $2}'; }
# the memory a live session registers shows, and goes when it ends
[ "$(reg)" = 0 ] || fail "registered memory at rest: $(reg)"
curl -sf --max-time 90 "$url/probe?target=$RDMAD_SRV_ADDR:7471&module=long" >"$T/long.prom" &
lpid=$!
for ((i = 0; i < 600; i++)); do
	r=$(reg)
	[ "${r:-0}" -ge $((1 << 20)) ] && break
	kill -0 $lpid 2>/dev/null || break
	sleep 0.05
done
[ "${r:-0}" -ge $((1 << 20)) ] || fail "a 1 MiB session: rdmad_registered_memory_bytes ${r:-none}"
wait $lpid || fail "the 1 MiB probe: no answer"
grep -q '^probe_success 1' "$T/long.prom" || fail "the 1 MiB probe failed: $(cat "$T/long.prom")"
log "registered during a 1 MiB session: $r bytes"
for ((i = 0; i < 200; i++)); do
	[ "$(reg)" = 0 ] && break
	sleep 0.1
done
[ "$(reg)" = 0 ] || fail "after the session: rdmad_registered_memory_bytes $(reg)"

"$CTL" -a "$http" metrics >"$T/self.prom" || fail "rdmadctl metrics failed"
now=$(date +%s)
st=$(m process_start_time_seconds)
awk -v st="$st" -v a="$t0" -v b="$now" 'BEGIN { exit !(st != "" && a - 2 <= st && st <= b + 1) }' ||
	fail "process_start_time_seconds $st not between the start ($t0) and now ($now)"
nopen=$(m process_open_fds)
real=$(ls /proc/"$RDMAD_PID"/fd | wc -l)
[ "${nopen:-0}" -gt 0 ] && [ $((nopen - real)) -le 4 ] && [ $((real - nopen)) -le 4 ] ||
	fail "process_open_fds $nopen, /proc/$RDMAD_PID/fd has $real"
max=$(awk '/^Max open files/ {print $4}' /proc/"$RDMAD_PID"/limits)
[ "$(m process_max_fds)" = "$max" ] || fail "process_max_fds $(m process_max_fds), limits say $max"
rss=$(m process_resident_memory_bytes)
vm=$(m process_virtual_memory_bytes)
[ "${rss:-0}" -gt 1000000 ] && [ "${vm:-0}" -gt "$rss" ] || fail "resident $rss, virtual $vm bytes"
# (the 1 MiB session above spent CPU: more than a tick)
cpu=$(m process_cpu_seconds_total)
ticks=$(cpu_ticks "$RDMAD_PID")
awk -v c="$cpu" -v t="$ticks" -v hz="$(getconf CLK_TCK)" \
	'BEGIN { exit !(c != "" && c > 0 && c < 600 && c <= t / hz + 0.001) }' ||
	fail "process_cpu_seconds_total $cpu (/proc says $ticks ticks now)"
[ "$(m rdmad_registered_memory_max_bytes)" = $((256 << 20)) ] ||
	fail "rdmad_registered_memory_max_bytes $(m rdmad_registered_memory_max_bytes), want 256 MiB"
[ "$(m rdmad_build_info\{version=\"$version\"\})" = 1 ] || fail "no rdmad_build_info of $version"

# the reload gauges: 1 since start, 0 after a refused reload, 1 again
[ "$(m rdmad_config_last_reload_successful)" = 1 ] || fail "reload gauge at start: $(m rdmad_config_last_reload_successful)"
ts0=$(m rdmad_config_last_reload_success_timestamp_seconds)
awk -v a="$ts0" -v b="$(m rdmad_start_time_seconds)" 'BEGIN { d = a - b; exit !(a != "" && d < 1 && d > -1) }' ||
	fail "reload timestamp $ts0 is not the start"
echo "max_conections = 5" >>"$T/rdmad.ini"
kill -HUP "$RDMAD_PID"
wait_log "reload refused: $T/rdmad.ini:.*max_conections" 20
"$CTL" -a "$http" metrics >"$T/self.prom"
[ "$(m rdmad_config_last_reload_successful)" = 0 ] || fail "after a refused reload: $(m rdmad_config_last_reload_successful)"
[ "$(m rdmad_config_last_reload_success_timestamp_seconds)" = "$ts0" ] || fail "a refused reload moved the timestamp"
# the good reload more than a second after the start
while awk -v a="$ts0" -v b="$(date +%s.%N)" 'BEGIN { exit !(b < a + 1.1) }'; do sleep 0.1; done
sed -i '/max_conections/d' "$T/rdmad.ini"
rdmad_reload 20
"$CTL" -a "$http" metrics >"$T/self.prom"
[ "$(m rdmad_config_last_reload_successful)" = 1 ] || fail "after a good reload: $(m rdmad_config_last_reload_successful)"
awk -v a="$ts0" -v b="$(m rdmad_config_last_reload_success_timestamp_seconds)" 'BEGIN { exit !(b > a + 1) }' ||
	fail "a good reload did not move the timestamp: $ts0 -> $(m rdmad_config_last_reload_success_timestamp_seconds)"
rdmad_alive
log "gzip, the landing page, the self metrics and the reload gauges hold"
exit 0
