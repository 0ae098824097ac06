#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The heatmap of GET /mesh, looked at in a browser.  rdmad on every host
# (3 or 4) probes every other, 64 B and 64 KiB rounds every second.  Then
# 150 ms of delay on host 3's NIC (both ways: some 600 ms more per round,
# a WRITE and a READ each crossing it twice) until host 1's page shows
# host 3's cells in the reddest steps of the scale (p99 from 316 ms on)
# and every healthy cell below them.  Measured here: the healthy p99 (of
# 32 rounds, so their slowest) wanders between 5 and 200 ms in TCG guests
# (cells 4 steps apart on one row), which is why "agree" is "all below
# 316 ms, 2 steps or more under host 3's", not "the same colour".
# The page is fetched by curl in host 1 and rendered by headless Chromium
# ON THIS MACHINE from the saved file: the fabric's wire has, by design,
# no path to this machine, so the browser cannot fetch it from the guest.
# The screenshot (a fixed window) is checked with python3-pil: each cell
# is found from its data-peer/data-size attributes (x, y, width, height
# of the rect; the SVG is the first thing in the body, margin 0), the
# colour that fills most of its middle is matched to the page's colour
# scale, and: every cell shows the fill the page gave it, host 3's cells
# and the healthy ones as above.  Kept in $T: mesh.html, mesh.png (the
# screenshot), cells.txt (what was sampled).
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	fab_fail "chromium not installed (Debian package chromium; tests/testbed/install-deps)"
# Debian's python3 (a python3 earlier in PATH may lack Debian's modules)
for PYPIL in python3 /usr/bin/python3 ""; do
	[ -n "$PYPIL" ] && "$PYPIL" -c 'import PIL' 2>/dev/null && break
done
[ -n "$PYPIL" ] || fab_fail "python3's PIL missing (Debian package python3-pil; tests/testbed/install-deps)"
n=4
[ "$(cat "$F/n")" -ge 4 ] || n=3
fab_require "$n"
peers=()
for ((i = 2; i <= n; i++)); do peers+=("$(fab_peer "$i")"); done
fab_mesh_start "$n" 7471 "mesh.interval = 1s" "mesh.sizes = 64 64k" \
	"mesh.round_timeout = 5s"
sizes=2
fab_mesh_wait_up 1 60 "${peers[@]}"
BAD=$(fab_peer 3)

# check_page FILE: host 3's cells 2+ steps above the healthy ones of their
# row (fills of the page, matched to its legend's scale); prints them.
check_page() {
	python3 - "$1" "$BAD" <<'PY'
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
bad = sys.argv[2]
SLOW = 18  # the steps from 316 ms on
scale = [r.get("fill") for r in root.iter(S + "rect")
         if r.get("width") == "24" and r.get("height") == "14"]
assert len(scale) == 20, scale
rows = {}
for c in root.iter(S + "rect"):
    if c.get("class") != "c":
        continue
    f = c.get("fill")
    step = scale.index(f) if f in scale else -1
    rows.setdefault(c.get("data-size"), {})[c.get("data-peer")] = step
out = []
for size, cells in rows.items():
    good = [v for p, v in cells.items() if p != bad]
    out.append("%s: host 3 step %d, healthy %s" % (size, cells[bad], good))
    assert min(good) >= 0 and max(good) <= SLOW - 1 and \
        cells[bad] >= max(SLOW, max(good) + 2), out[-1]
print("; ".join(out))
PY
}

sleep 10
fab_sh 1 "curl -sf http://127.0.0.1:9470/mesh" >"$T/clean.html" || fab_fail "GET /mesh on host 1 failed"
fab_log "healthy: $(python3 - "$T/clean.html" <<'PY'
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
for c in ET.parse(sys.argv[1]).getroot().iter(S + "rect"):
    if c.get("class") == "c" and c.get("data-size") == "all":
        print(c.find(S + "title").text.split(";")[0] + ";", end=" ")
PY
)"

fab_netem 3 both "delay 150ms"
t0=$(fab_now)
for ((k = 0; ; k++)); do
	fab_sh 1 "curl -sf http://127.0.0.1:9470/mesh" >"$T/mesh.html" || fab_fail "GET /mesh on host 1 failed"
	out=$(check_page "$T/mesh.html" 2>&1) && break
	[ "$k" -lt 75 ] || fab_fail "host 1's page does not show host 3 degraded (and only it) after 150 s: $out"
	sleep 2
done
fab_netem_clear 3
fab_log "host 1's page shows host 3 after $(fab_since "$t0") s: $out"

# The screenshot, on this machine, from the saved page.
w=1200 h=700
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$T/chromium" --window-size=$w,$h \
	--screenshot="$T/mesh.png" "file://$T/mesh.html" >"$T/chromium.log" 2>&1
[ -s "$T/mesh.png" ] || fab_fail "chromium took no screenshot: $(tail -5 "$T/chromium.log")"
rm -rf "$T/chromium"
$PYPIL - "$T/mesh.html" "$T/mesh.png" "$BAD" "$w" "$h" >"$T/cells.txt" <<'PY' || fab_fail "the screenshot: $(cat "$T/cells.txt")"
import sys, collections, xml.etree.ElementTree as ET
from PIL import Image
S = "{http://www.w3.org/2000/svg}"
page, png, bad, w, h = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
img = Image.open(png).convert("RGB")
assert img.size == (w, h), img.size
root = ET.parse(page).getroot()
rgb = lambda f: tuple(int(f[i:i + 2], 16) for i in (1, 3, 5))
scale = [rgb(r.get("fill")) for r in root.iter(S + "rect")
         if r.get("width") == "24" and r.get("height") == "14"]
def step(c):  # the nearest colour of the scale, and how near
    d = [sum((a - b) ** 2 for a, b in zip(c, s)) for s in scale]
    return d.index(min(d)), min(d)
rows = collections.defaultdict(dict)
for c in root.iter(S + "rect"):
    if c.get("class") != "c":
        continue
    x, y, cw, ch = (int(c.get(k)) for k in ("x", "y", "width", "height"))
    # the middle half of the cell; the colour most of it shows
    px = collections.Counter(img.getpixel((i, j))
                             for i in range(x + cw // 4, x + 3 * cw // 4 + 1)
                             for j in range(y + ch // 4, y + 3 * ch // 4 + 1))
    seen = px.most_common(1)[0][0]
    k, dist = step(seen)
    want = rgb(c.get("fill"))
    print("%s size %s: at (%d,%d) %dx%d pixel #%02x%02x%02x, page fill %s, step %d"
          % (c.get("data-peer"), c.get("data-size"), x, y, cw, ch, *seen, c.get("fill"), k))
    assert sum((a - b) ** 2 for a, b in zip(seen, want)) <= 48, "the pixel is not the cell's fill: is the SVG where the page says?"
    assert dist <= 48, "a colour off the scale"
    rows[c.get("data-size")][c.get("data-peer")] = k
for size, cells in rows.items():
    good = [v for p, v in cells.items() if p != bad]
    assert cells[bad] >= max(18, max(good) + 2), "size %s: host 3 step %d, healthy %s" % (size, cells[bad], good)
    assert max(good) <= 17, "size %s: the healthy cells disagree (one from 316 ms on): %s" % (size, good)
    print("size %s: host 3 step %d, healthy %s" % (size, cells[bad], good))
PY
fab_log "screenshot $T/mesh.png ($(stat -c %s "$T/mesh.png") bytes), the cells as sampled:"
sed 's/^/#   /' "$T/cells.txt" >&2
