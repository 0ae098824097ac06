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
# Until A has made 4 attempts at the other key and B 4 without one (the
# backoff reaches its 2 s), and A verified 10 rounds with its key.
for ((i = 0; i < 1200; i++)); do
	[ "$(grep -c "mesh: $A:7742: connect failed again" "$T/a.log")" -ge 3 ] &&
		[ "$(grep -c "mesh: $A:7741: connect failed again" "$T/b.log")" -ge 3 ] &&
		{ curl -sf http://127.0.0.1:9474/metrics >"$T/a.prom" || :; } &&
		[ "$(prom_sum "$T/a.prom" rdmad_mesh_rounds_total "peer=\"$A:7741\"" 'result="ok"')" -ge 10 ] && break
	sleep 0.1
done
# The attempts logged before and after /peers is read bound its count
# (every attempt, whatever failed it).  A starved guest can time a round
# or a connect out (the machine's, not the key's): the snapshot is taken
# again, up to 20 times, until each pair's last attempt is its key's.
attempts() { grep -c "mesh: $1\(: connect failed again\| down:\)" "$2"; }
for ((k = 0; k < 20; k++)); do
	n0a=$(attempts "$A:7742" "$T/a.log")
	n0b=$(attempts "$A:7741" "$T/b.log")
	curl -sf http://127.0.0.1:9474/peers >"$T/a.json" || fail "GET /peers of A"
	curl -sf http://127.0.0.1:9475/peers >"$T/b.json" || fail "GET /peers of B"
	curl -sf http://127.0.0.1:9474/metrics >"$T/a.prom" || fail "GET /metrics of A"
	n1a=$(attempts "$A:7742" "$T/a.log")
	n1b=$(attempts "$A:7741" "$T/b.log")
	! grep -q '"last":"timeout"' "$T/a.json" "$T/b.json" && break
	log "snapshot $k: a timed-out attempt is the last of a pair; again"
	sleep 0.5
done
# The same key: verified rounds, and none failed on the key or the bytes.
for r in auth-failed mismatch; do
	n=$(prom_sum "$T/a.prom" rdmad_mesh_rounds_total "peer=\"$A:7741\"" "result=\"$r\"")
	[ "$n" = 0 ] || fail "A -> 7741 (the same key): $n rounds $r"
done
python3 - "$T/a.json" "$T/b.json" "$A" "$n0a" "$n1a" "$n0b" "$n1b" <<'PY' || fail "keys: $(cat "$T/a.json" "$T/b.json")"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3]); h = sys.argv[3]
n0a, n1a, n0b, n1b = map(int, sys.argv[4:8])
pa = {x["peer"]: x["paths"][0] for x in a["peers"]}
pb = {x["peer"]: x["paths"][0] for x in b["peers"]}
good, other, nokey = pa[h + ":7741"], pa[h + ":7742"], pb[h + ":7741"]
assert good["reach"] == "up" and good["rounds_ok"] >= 10, good
assert other["reach"] == "down" and other["last"] == "auth-failed" and "share one key" in other["error"], other
assert nokey["reach"] == "down" and nokey["last"] == "auth-failed" and "[auth] psk_file" in nokey["error"], nokey
# Every attempt counted: as many failed rounds as attempts logged.
assert n0a <= other["rounds_failed"] <= n1a, (n0a, other["rounds_failed"], n1a)
assert n0b <= nokey["rounds_failed"] <= n1b, (n0b, nokey["rounds_failed"], n1b)
print("# same key: %d rounds verified (%d failed); other key: %d attempts (%s); no key: %d attempts (%s)" % (
    good["rounds_ok"], good["rounds_failed"], other["rounds_failed"], other["error"], nokey["rounds_failed"], nokey["error"]))
PY
# Each backs off: the waits it logged go from 0.5 s to 2 s (jittered), and
# all the attempts' span is at least 0.9 x the waits' sum, on the guest's
# one clock.  No backoff at all would fail both (an auth-failed attempt
# takes some 30 ms: 4 attempts in ~0.1 s against waits of 3.5 s and
# more).  Not each gap against its wait: a line is stamped after its
# timer is set, and a starved guest stamped one 0.3 s late, the next
# attempt 0.198 s after "next connect in 0.5 s" (CI-V, 2026-11-30).
python3 - "$T/a.log" "$A:7742" "$T/b.log" "$A:7741" <<'PY' || fail "backoff"
import re, sys
from datetime import datetime
for log, peer in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    at, wait = [], []
    for l in open(log):
        m = re.match(r"(\S+) \S+ mesh: %s(?::| down:).*(?:next connect in|backing off) ([0-9.]+) s" % re.escape(peer), l)
        if m:
            at.append(datetime.fromisoformat(m.group(1)).timestamp())
            wait.append(float(m.group(2)))
    assert len(at) >= 4, (log, peer, len(at))
    assert at[-1] - at[0] >= 0.9 * sum(wait[:-1]), (log, peer, at[-1] - at[0], sum(wait[:-1]))
    assert max(wait) >= 1.5 and min(wait) >= 0.4, (log, peer, wait)
    print("# %s -> %s: %d attempts, backoffs %s s" % (log.split("/")[-1], peer, len(at), " ".join("%.1f" % w for w in wait)))
PY
pkill -TERM -x rdmad
exit 0
