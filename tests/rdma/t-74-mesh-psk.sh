#!/bin/bash
# The mesh agent and pre-shared keys: rdmad A ([auth] psk_file K) probes
# three keyed rdmads: one with K (its rounds verify: AUTH first, then the
# buffer), one with another key (result auth-failed, the table says the
# fabric's hosts must share one key), and, from a second prober without a
# key, the one with K (auth-failed, "set [auth] psk_file").  Every attempt
# is counted and backs off; nothing but the key differs.
source "$(dirname "$0")/lib.sh"
A=$RDMAD_SRV_ADDR
head -c 32 /dev/urandom | base64 >"$T/k1"
head -c 32 /dev/urandom | base64 >"$T/k2"
chmod 600 "$T/k1" "$T/k2"
serve() { # serve PORT KEY
	printf '[server]\nlisten = %s:%s\n[auth]\npsk_file = %s\n[http]\nlisten = off\n' "$A" "$1" "$2" >"$T/s$1.ini"
	rdmad_start "$T/s$1.ini" "$T/s$1.log"
}
serve 7741 "$T/k1"
serve 7742 "$T/k2"
printf '%s\n' "$A:7741" "$A:7742" >"$T/peers"
echo "$A:7741" >"$T/peers-b"
prober() { # prober NAME PORT HTTP PEERS [KEY]
	printf '[server]\nlisten = %s:%s\n[mesh]\ntargets = %s\ninterval = 200ms\nbackoff_min = 500ms\nbackoff_max = 2s\nconnect_timeout = 1s\n[http]\nlisten = %s\n' \
		"$A" "$2" "$4" "$3" >"$T/$1.ini"
	[ -n "${5:-}" ] && printf '[auth]\npsk_file = %s\n' "$5" >>"$T/$1.ini"
	rdmad_start "$T/$1.ini" "$T/$1.log"
}
prober a 7743 127.0.0.1:9474 "$T/peers" "$T/k1"
prober b 7744 127.0.0.1:9475 "$T/peers-b"
sleep 5
curl -sf http://127.0.0.1:9474/peers >"$T/a.json" || fail "GET /peers of A"
curl -sf http://127.0.0.1:9475/peers >"$T/b.json" || fail "GET /peers of B"
python3 - "$T/a.json" "$T/b.json" "$A" <<'PY' || fail "keys: $(cat "$T/a.json" "$T/b.json")"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3]); h = sys.argv[3]
pa = {x["peer"]: x["paths"][0] for x in a["peers"]}
pb = {x["peer"]: x["paths"][0] for x in b["peers"]}
good, other, nokey = pa[h + ":7741"], pa[h + ":7742"], pb[h + ":7741"]
assert good["reach"] == "up" and good["rounds_ok"] >= 10 and good["rounds_failed"] == 0, good
assert other["reach"] == "down" and other["last"] == "auth-failed" and "share one key" in other["error"], other
assert nokey["reach"] == "down" and nokey["last"] == "auth-failed" and "[auth] psk_file" in nokey["error"], nokey
assert 2 <= other["rounds_failed"] <= 8 and 2 <= nokey["rounds_failed"] <= 8, (other, nokey)
print("# same key: %d rounds verified; other key: %d attempts (%s); no key: %d attempts (%s)" % (
    good["rounds_ok"], other["rounds_failed"], other["error"], nokey["rounds_failed"], nokey["error"]))
PY
pkill -TERM -x rdmad
exit 0
