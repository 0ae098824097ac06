#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The status endpoint's configuration, on rdmad-fake: rdmadctl's own
# errors (unreachable 69, endpoint off 78, bad -a 64, a bad [http] listen
# 78 with FILE:LINE); rdmadctl reads only [http], so a user who may not
# read the [auth] key file can still ask; a taken port stops a second
# rdmad at start (exit 69, naming [http] listen); a reload moves the
# endpoint to another port; [http] allow refuses the loopback (403,
# logged); a reload to a taken port is refused and the endpoint stays;
# an IPv6 endpoint ([::1]) answers; a reload moves one port from an
# address to the wildcard and back (the two cannot listen side by side),
# seen from another loopback address ($OTHER).  The rdma guest's t-71
# keeps the live connections' listing (real RDMA clients).
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"
need_root "rdmadctl run as nobody (setpriv)"

PY=/usr/bin/python3
port=7483
OTHER=127.0.0.2
http=127.0.0.1:$(free_port)
ini_text "$RDMAD_SRV_ADDR:$port" "http.listen = $http" >"$T/rdmad.ini"
rdmad_start
"$CTL" -c "$T/rdmad.ini" status >"$T/status.txt" || fail "rdmadctl status: $(cat "$T/status.txt")"
grep -q "^listening: $RDMAD_SRV_ADDR:$port (up)" "$T/status.txt" || fail "status listener line: $(cat "$T/status.txt")"

# rdmadctl's own errors.
"$CTL" -a 127.0.0.1:1 status >/dev/null 2>"$T/unreach.err"
rc=$?
[ "$rc" = 69 ] || fail "unreachable: exit $rc, want 69"
grep -q "cannot reach rdmad at http://127.0.0.1:1/" "$T/unreach.err" || fail "unreachable message: $(cat "$T/unreach.err")"
printf '[http]\nlisten = off\n' >"$T/off.ini"
"$CTL" -c "$T/off.ini" status >/dev/null 2>"$T/off.err"
rc=$?
[ "$rc" = 78 ] || fail "endpoint off: exit $rc, want 78"
grep -q "status endpoint is off" "$T/off.err" || fail "off message: $(cat "$T/off.err")"
"$CTL" -a nonsense status >/dev/null 2>&1
rc=$?
[ "$rc" = 64 ] || fail "bad -a: exit $rc, want 64"
printf '[http]\nlisten = 1.2.3\n' >"$T/bad.ini"
"$CTL" -c "$T/bad.ini" status >/dev/null 2>"$T/bad.err"
rc=$?
[ "$rc" = 78 ] || fail "bad config: exit $rc, want 78"
grep -q "bad.ini:2: listen" "$T/bad.err" || fail "bad config message: $(cat "$T/bad.err")"
# rdmadctl reads [http] alone: not the key file only root may read, nor
# the sections it has no use for; any user who can read rdmad.ini can ask.
K=$T/keyed
mkdir -p "$K"
chmod 755 "$T" "$K"
head -c 32 /dev/urandom >"$K/psk"
chmod 600 "$K/psk"
printf '[auth]\npsk_file = %s\n[http]\nlisten = %s\n' "$K/psk" "$http" >"$K/keyed.ini"
chmod 644 "$K/keyed.ini"
setpriv --reuid=65534 --regid=65534 --clear-groups "$CTL" -c "$K/keyed.ini" status \
	>"$T/nobody.txt" 2>"$T/nobody.err" ||
	fail "rdmadctl as nobody with a keyed configuration: exit $?: $(cat "$T/nobody.err")"
grep -q "^listening: $RDMAD_SRV_ADDR:$port (up)" "$T/nobody.txt" || fail "rdmadctl as nobody: $(cat "$T/nobody.txt")"

# A second rdmad wanting the same endpoint does not start.
ini_text "$RDMAD_SRV_ADDR:7484" "http.listen = $http" >"$T/second.ini"
timeout 120 "$RDMAD" -c "$T/second.ini" >"$T/second.log" 2>&1
rc=$?
[ "$rc" = 69 ] || fail "second rdmad on a taken [http] port: exit $rc, want 69: $(tail -3 "$T/second.log")"
grep -q "\[http\] listen $http: cannot listen" "$T/second.log" || fail "second rdmad's message: $(cat "$T/second.log")"

# Reload moves the endpoint; then an allow list without the loopback.
h2=127.0.0.1:$(free_port)
ini_text "$RDMAD_SRV_ADDR:$port" "http.listen = $h2" >"$T/rdmad.ini"
kill -HUP "$RDMAD_PID"
wait_log "status and metrics now on http://$h2/" 10
"$CTL" -a "$h2" status >/dev/null || fail "new endpoint after reload"
"$CTL" -a "$http" status >/dev/null 2>&1 && fail "old endpoint still answers after reload"
ini_text "$RDMAD_SRV_ADDR:$port" "http.listen = $h2" "http.allow = $OTHER/32" >"$T/rdmad.ini"
kill -HUP "$RDMAD_PID"
wait_log "reload: configuration re-read" 10
for ((i = 0; i < 50; i++)); do
	"$CTL" -a "$h2" status >/dev/null 2>"$T/denied.err"
	rc=$?
	[ "$rc" = 69 ] && break
	sleep 0.1
done
[ "$rc" = 69 ] || fail "loopback not in [http] allow: exit $rc, want 69"
grep -q "answered 403" "$T/denied.err" || fail "denied message: $(cat "$T/denied.err")"
wait_log "http: request from 127.0.0.1:[0-9]* refused: not in \[http\] allow" 5
# A reload to a taken port is refused as a whole; the endpoint stays.
# The blocker says when it holds the port (its number, the kernel's pick).
"$PY" -c 'import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen()
open(sys.argv[1] + ".tmp", "w").write("%d\n" % s.getsockname()[1])
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(60)' "$T/blocker.port" &
blocker=$!
for ((i = 0; i < 200; i++)); do [ -e "$T/blocker.port" ] && break; sleep 0.1; done
[ -e "$T/blocker.port" ] || fail "the port blocker did not bind a port in 20 s"
taken=127.0.0.1:$(cat "$T/blocker.port")
ini_text "$RDMAD_SRV_ADDR:$port" "http.listen = $taken" >"$T/rdmad.ini"
kill -HUP "$RDMAD_PID"
wait_log "reload refused: \[http\] listen $taken: cannot listen" 10
"$CTL" -a "$h2" status >/dev/null 2>&1
[ $? = 69 ] || fail "the endpoint changed on a refused reload"
wait_log "http: request from 127.0.0.1:[0-9]* refused" 5
kill "$blocker"
# IPv6: the endpoint on [::1], the default allow list admits it.
h6="[::1]:$(free_port)"
ini_text "$RDMAD_SRV_ADDR:$port" "http.listen = $h6" >"$T/rdmad.ini"
kill -HUP "$RDMAD_PID"
wait_log "status and metrics now on http://\[::1\]:${h6##*:}/" 10
"$CTL" -a "$h6" status >"$T/v6.txt" 2>"$T/v6.err" || fail "status over [::1]: $(cat "$T/v6.err")"
grep -q "^listening: $RDMAD_SRV_ADDR:$port (up)" "$T/v6.txt" || fail "status over [::1]: $(cat "$T/v6.txt")"
# One port, from an address to the wildcard and back: no reload refused.
wp=$(free_port)
reload_http() {
	local n
	n=$(grep -c "status and metrics now on http://$1/" "$T/rdmad.log")
	ini_text "$RDMAD_SRV_ADDR:$port" "http.listen = $1" >"$T/rdmad.ini"
	kill -HUP "$RDMAD_PID"
	for ((i = 0; i < 100; i++)); do
		[ "$(grep -c "status and metrics now on http://$1/" "$T/rdmad.log")" -gt "$n" ] && return 0
		sleep 0.1
	done
	tail -3 "$T/rdmad.log" >&2
	fail "reload to [http] listen = $1 not done"
}
on_other() { "$PY" -c 'import socket, sys
socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=3).close()' "$OTHER" "$wp" 2>/dev/null; }
reload_http 127.0.0.1:$wp
on_other && fail "127.0.0.1:$wp answers on $OTHER"
reload_http 0.0.0.0:$wp
"$CTL" -a 127.0.0.1:$wp status >/dev/null || fail "no endpoint on 127.0.0.1:$wp with [http] listen = 0.0.0.0:$wp"
on_other || fail "[http] listen = 0.0.0.0:$wp not on $OTHER"
reload_http 127.0.0.1:$wp
"$CTL" -a 127.0.0.1:$wp status >/dev/null || fail "no endpoint on 127.0.0.1:$wp after the wildcard"
on_other && fail "the wildcard still listens after the reload back to 127.0.0.1:$wp"
rdmad_alive
exit 0
