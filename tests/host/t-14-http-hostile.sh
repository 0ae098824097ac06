#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Bad HTTP clients of the status endpoint never hurt rdmad: garbage
# request lines, oversized headers, a body on GET, a path out of the
# tree, 200 idle connections held open and a client that never reads
# its answer.  Meanwhile a /probe of rdmad-fake's own listener passes,
# the endpoint keeps answering, and the idle connections are dropped
# after the endpoint's timeout (10 s) while their client still holds
# them: rdmad's open files return to where they were.  N requests from
# outside [http] allow are all refused and counted
# (rdmad_http_requests_refused_total), but logged at most 10 times a
# minute, and the summary lines tell how many were not.
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
hp=$(free_port)
http=127.0.0.1:$hp
# 127.0.0.2 (the refused requests' source) is outside allow
ini_text "$RDMAD_SRV_ADDR:7471" "http.listen = $http" "http.allow = 127.0.0.1/32" >"$T/rdmad.ini"
rdmad_start
nfd() { ls /proc/"$RDMAD_PID"/fd | wc -l; }
"$CTL" -a "$http" status >/dev/null || fail "endpoint not answering at start"
fd0=$(nfd)

"$PY" - 127.0.0.1 "$hp" <<'PY' || fail "bad HTTP clients"
import socket, sys
host, port = sys.argv[1], int(sys.argv[2])

def talk(data, read=True):
    s = socket.create_connection((host, port), timeout=30)
    s.sendall(data)
    out = b""
    if read:
        try:
            while True:
                b = s.recv(65536)
                if not b:
                    break
                out += b
        except socket.timeout:
            pass
    s.close()
    return out

def status_line(resp):
    return resp.split(b"\r\n", 1)[0].decode(errors="replace")

r = talk(b"\x00\xff garbage \x01\r\n\r\n")
assert r == b"" or b" 400 " in r.split(b"\r\n")[0], "garbage: %r" % r[:80]
r = talk(b"GET /status HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n")
assert r == b"" or status_line(r).split()[1] in ("400", "413", "431"), "huge header: %r" % r[:80]
r = talk(b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + b"x" * 100000)
assert r == b"" or status_line(r).split()[1] in ("400", "413"), "huge body: %r" % r[:80]
r = talk(b"GET /../../etc/passwd HTTP/1.0\r\n\r\n")
assert b" 404 " in r.split(b"\r\n")[0], "path: %r" % r[:80]
# A client that asks for a lot and never reads.
nr = socket.create_connection((host, port))
for _ in range(50):
    nr.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
print("malformed requests handled")
PY
rdmad_alive

# 200 idle connections held open by one process until it is killed:
# only rdmad's side can drop them.
"$PY" -c '
import socket, sys, time
socks = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for _ in range(200)]
time.sleep(3600)
' "$hp" &
idle=$!
for ((i = 0; i < 300; i++)); do
	[ "$(nfd)" -ge $((fd0 + 200)) ] && break
	sleep 0.1
done
held=$(nfd)
[ "$held" -ge $((fd0 + 200)) ] || fail "rdmad holds $held fds ($fd0 at start): the 200 idle connections are not all taken"
"$CTL" -a "$http" status >"$T/during.txt" || fail "endpoint does not answer beside 200 idle connections"
curl -sf --max-time 30 "http://$http/probe?target=$RDMAD_SRV_ADDR:7471" >"$T/probe.prom" ||
	fail "/probe beside 200 idle HTTP connections: no answer"
grep -q '^probe_success 1' "$T/probe.prom" || fail "/probe beside 200 idle HTTP connections: $(cat "$T/probe.prom")"
log "fds: $fd0 at start, $held with 200 idle HTTP connections"
# The endpoint's 10 s timeout closes them; the process holding them
# lives on.
for ((i = 0; i < 600; i++)); do
	[ "$(nfd)" -le $((fd0 + 2)) ] && break
	sleep 0.1
done
n=$(nfd)
log "fds: $n after the endpoint timeout"
kill -0 "$idle" 2>/dev/null || fail "the holder of the idle connections left early"
[ "$n" -le $((fd0 + 2)) ] || fail "rdmad still holds $n fds ($fd0 at start): idle HTTP connections not timed out"
kill $idle
"$CTL" -a "$http" status >/dev/null || fail "endpoint not answering at the end"
rdmad_alive

# N requests from 127.0.0.2, outside [http] allow: each a 403.
N=300
t0=$SECONDS
"$PY" - 127.0.0.1 "$hp" $N <<'PY' || fail "requests from outside [http] allow"
import socket, sys
host, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(n):
    s = socket.create_connection((host, port), timeout=30, source_address=("127.0.0.2", 0))
    s.sendall(b"GET /status HTTP/1.0\r\n\r\n")
    r = s.recv(200)
    s.close()
    assert b" 403 " in r.split(b"\r\n")[0], "request %d: %r" % (i, r[:80])
print("%d requests refused" % n)
PY
got=$(curl -sf --max-time 30 "http://$http/metrics" | prom_sum - rdmad_http_requests_refused_total 'reason="forbidden"')
log "rdmad_http_requests_refused_total{reason=\"forbidden\"} $got after $N refused requests"
[ "$got" = $N ] || fail "forbidden requests counted $got, want $N"
# 10 lines a minute
max=$((10 * (1 + (SECONDS - t0) / 60)))
lines=$(grep -c "request from 127\.0\.0\.2:[0-9]* refused: not in \[http\] allow" "$T/rdmad.log")
log "$lines log lines for $N refused requests in $((SECONDS - t0)) s"
[ "$lines" -ge 1 ] && [ "$lines" -le $max ] ||
	fail "$lines log lines for $N refused requests (want 1..$max)"
# The summaries of the lines left out (at a minute's end, and at the
# stop) count the rest.
kill -TERM "$RDMAD_PID"
wait "$RDMAD_PID"
rest=$(sed -n 's/.*http: \([0-9]*\) more refused requests were not logged.*/\1/p' "$T/rdmad.log" |
	awk '{ n += $1 } END { print n + 0 }')
log "summary lines: $rest requests not logged"
[ $((lines + rest)) = $N ] ||
	{ tail -5 "$T/rdmad.log" >&2; fail "$lines lines and summaries of $rest for $N refused requests"; }
exit 0
