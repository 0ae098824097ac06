#!/bin/bash
# GET /mesh, the heatmap page, from a live mesh agent (loopback rxe, as in
# t-73): rdmad A (port 7751) probes two serving rdmads (7752, 7753) and a
# port nobody listens on (7759), 64 B and 4 KiB rounds every 200 ms.
#  1. The page: 200, text/html, well-formed (python3's xml.etree), the
#     refresh asked for, a cell (rect with data-peer, data-size and a
#     title) per peer and size plus "all", coloured from the scale for
#     the live peers, the dead port black; the table names every peer.
#  2. refresh=0: no reload; refresh=9999 and an unknown parameter: 400
#     naming refresh; from=2 shows the third peer and says what it left
#     out.  rdmadctl mesh --matrix: a row per peer, p99s for
#     the live ones, DOWN for the dead port.
#  3. 7753's rdmad stopped: its cells turn black, its row says DOWN.
#  4. An rdmad with no [mesh]: 200, "[mesh] targets is not set".
source "$(dirname "$0")/lib.sh"
A=$RDMAD_SRV_ADDR
http=127.0.0.1:9475
declare -A SPID
rdmad_serve 7752 1s
rdmad_serve 7753 1s
printf '%s\n' "$A:7752" "$A:7753" "$A:7759 # nobody" >"$T/peers"
rdmad_conf 7751 "mesh.targets = $T/peers" "mesh.interval = 200ms" \
	"mesh.sizes = 64 4k" "mesh.backoff_min = 500ms" "mesh.backoff_max = 2s" \
	"mesh.connect_timeout = 1s" "http.listen = $http"
rdmad_start "$T/rdmad.ini" "$T/a.log"
APID=$RDMAD_PID
# check_page FILE DOWN-PEERS...: well-formed, 3 peers x (2 sizes + all),
# the DOWN-PEERS' cells black, the others' coloured (not grey/black).
check_page() {
	python3 - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
f, down = sys.argv[1], set(sys.argv[2:])
root = ET.parse(f).getroot()
S = "{http://www.w3.org/2000/svg}"
cells = [r for r in root.iter(S + "rect") if r.get("class") == "c"]
peers = {c.get("data-peer") for c in cells}
assert len(cells) == 9 and len(peers) == 3, (len(cells), peers)
assert {c.get("data-size") for c in cells} == {"64", "4096", "all"}
for c in cells:
    t = c.find(S + "title").text
    if c.get("data-peer") in down:
        assert c.get("fill") == "#141414" and "DOWN" in t, (c.attrib, t)
    else:
        assert c.get("fill") not in ("#141414", "#bdbdbd"), (c.attrib, t)
        assert " 0 failed" in t, t
rows = ["".join(tr.itertext()) for tr in root.iter("tr")]
for p in peers:
    assert any(r.startswith(p + ("DOWN" if p in down else "yes")) for r in rows), (p, rows)
print("; ".join(c.find(S + "title").text for c in cells if c.get("data-size") == "all"))
PY
}
end=$(($(now_ms) + 30000))
while :; do
	curl -s -D "$T/h1" -o "$T/mesh1.html" "http://$http/mesh?refresh=5" || fail "GET /mesh failed"
	out=$(check_page "$T/mesh1.html" "$A:7759" 2>&1) && break
	[ "$(now_ms)" -lt "$end" ] || fail "the page does not show 7752, 7753 coloured and 7759 down after 30 s: $out"
	sleep 1
done
grep -q "^HTTP/1.1 200" "$T/h1" && grep -qi "^Content-Type: text/html; charset=utf-8" "$T/h1" || fail "GET /mesh: $(head -5 "$T/h1")"
grep -q '<meta http-equiv="refresh" content="5"/>' "$T/mesh1.html" || fail "no refresh of 5 s"
grep -q '<script' "$T/mesh1.html" && fail "a script in the page"
log "page of $(wc -c <"$T/mesh1.html") bytes; all sizes: $out"

curl -sf -o "$T/mesh0.html" "http://$http/mesh?refresh=0" || fail "refresh=0 refused"
grep -q 'http-equiv' "$T/mesh0.html" && fail "refresh=0 still reloads"
for q in refresh=9999 refresh=abc color=red; do
	code=$(curl -s -o "$T/bad.txt" -w '%{http_code}' "http://$http/mesh?$q")
	[ "$code" = 400 ] && grep -q "refresh=SECONDS" "$T/bad.txt" || fail "?$q: $code $(cat "$T/bad.txt")"
done
log "refresh=0: no reload; refresh=9999, abc, color=red: 400"
# from=N: the page from its N-th peer, saying what it left out.
curl -sf -o "$T/from.html" "http://$http/mesh?from=2&refresh=0" || fail "from=2 refused"
[ "$(grep -o '<rect class="c"' "$T/from.html" | wc -l)" = 3 ] || fail "from=2: not 1 peer x 3 rows"
grep -q "Peers 3 to 3 of 3 shown" "$T/from.html" && grep -q 'href="?from=0&amp;refresh=0"' "$T/from.html" ||
	fail "from=2: the page does not say what it left out: $(grep -o '<p id="more">.*' "$T/from.html")"
code=$(curl -s -o "$T/bad.txt" -w '%{http_code}' "http://$http/mesh?from=x")
[ "$code" = 400 ] && grep -q "from=N" "$T/bad.txt" || fail "?from=x: $code $(cat "$T/bad.txt")"
mx=$("$RDMAD_BUILD_DIR/src/ctl/rdmadctl" -a "$http" mesh --matrix) || fail "rdmadctl mesh --matrix failed"
log "rdmadctl mesh --matrix:"$'\n'"$mx"
grep -qE "^$A:7752 +[0-9.]+(us|ms|s) +[0-9.]+(us|ms|s) +[0-9.]+(us|ms|s)\$" <<<"$mx" &&
	grep -qE "^$A:7759 +DOWN +DOWN +DOWN\$" <<<"$mx" || fail "rdmadctl mesh --matrix: no p99s for 7752 or no DOWN for 7759"

kill -TERM "${SPID[7753]}"
wait "${SPID[7753]}" 2>/dev/null
end=$(($(now_ms) + 15000))
while :; do
	curl -sf -o "$T/mesh2.html" "http://$http/mesh" || fail "GET /mesh failed"
	out=$(check_page "$T/mesh2.html" "$A:7759" "$A:7753" 2>&1) && break
	[ "$(now_ms)" -lt "$end" ] || fail "7753 not shown down 15 s after its rdmad stopped: $out"
	sleep 0.5
done
grep -q '<meta http-equiv="refresh" content="10"/>' "$T/mesh2.html" || fail "the default refresh is not 10 s"
log "7753 stopped: shown down: $out"

kill -TERM "$APID"
wait "$APID" 2>/dev/null
rdmad_conf 7751 "http.listen = $http"
rdmad_start "$T/rdmad.ini" "$T/off.log"
code=$(curl -s -o "$T/off.html" -w '%{http_code}' "http://$http/mesh")
[ "$code" = 200 ] && grep -q '\[mesh\] targets is not set' "$T/off.html" || fail "mesh off: $code $(head -c 400 "$T/off.html")"
python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$T/off.html" || fail "mesh off: not well-formed"
log "mesh off: 200, says [mesh] targets is not set"
kill -TERM "${SPID[7752]}" "$RDMAD_PID"
exit 0
