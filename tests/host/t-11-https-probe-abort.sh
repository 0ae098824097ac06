#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# A /probe asker over TLS that leaves with close_notify (as Prometheus
# does at its scrape timeout: TLS close_notify, then FIN) aborts its
# probe at once: the probe of rdmad-fake's own listener (in-process RDMA
# through the fake, a module that would run until its 60 s timeout) ends
# within seconds, short of its operations.
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
iters=100000000
https_conf "limits.max_iterations = $iters"
cat >>"$T/rdmad.ini" <<INI
[module.huge]
size = 64
iterations = $iters
timeout = 60s
INI
rdmad_start

n0=$(grep -c 'close: native' "$T/rdmad.log")
"$PY" - 127.0.0.1 "$hp" "$C/ca.crt" "$RDMAD_SRV_ADDR:7471" "$T/rdmad.log" <<'PY' || fail "close_notify asker"
import base64, socket, ssl, sys, time
host, port, ca, target, logf = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
ctx = ssl.create_default_context(cafile=ca)
s = ctx.wrap_socket(socket.create_connection((host, port), timeout=30),
                    server_hostname=host)
auth = base64.b64encode(b"prom:s3cret pw").decode()
s.sendall(("GET /probe?target=%s&module=huge HTTP/1.1\r\nHost: x\r\n"
           "Authorization: Basic %s\r\n\r\n" % (target, auth)).encode())
for _ in range(300):             # until the probe's session is open
    if "open: native" in open(logf).read():
        break
    time.sleep(0.1)
else:
    sys.exit("the probe's session did not open in 30 s")
try:
    s.unwrap()                   # close_notify; rdmad may answer first
except (ssl.SSLError, OSError):
    pass
s.close()
PY
# Not aborted, the probe would end at its timeout, 60 s on.
t0=$(now_ms)
for ((i = 0; i < 200; i++)); do
	[ "$(grep -c 'close: native' "$T/rdmad.log")" -gt "$n0" ] && break
	sleep 0.1
done
t1=$(now_ms)
n=$(grep 'close: native' "$T/rdmad.log" | tail -1 | sed -n 's/.* \([0-9]*\) operations.*/\1/p')
[ "$(grep -c 'close: native' "$T/rdmad.log")" -gt "$n0" ] && [ -n "$n" ] && [ "$n" -lt $((2 * iters)) ] ||
	fail "a TLS asker's close_notify did not abort its probe: $(grep 'close:' "$T/rdmad.log" | tail -1)"
grep 'close: native' "$T/rdmad.log" | tail -1 | grep -q 'result aborted (client left' ||
	fail "the probe's session did not end as aborted: $(grep 'close:' "$T/rdmad.log" | tail -1)"
log "a TLS /probe asker's close_notify: its probe aborted $((t1 - t0)) ms after, at $n operations"
rdmad_alive
exit 0
