#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The demo's fabric scene (tests/demo-fabric: the second half of the
# README's first command), run as the demo runs it, so that what a
# newcomer sees first is in CI too: three hosts on one wire watching each
# other, Prometheus with the mixin, host 3's cable pulled and the verdict
# (RdmadHostUnreachable for host 3) seen, the heatmap drawn as a PNG, the
# cable back and host 3 verified again.  Each step's headline and time
# is logged.
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 3
t0=$(fab_now)
RDMAD_DEMO_OUT=$T/demo "$RDMAD_SOURCE_DIR/tests/demo-fabric" >"$T/demo.out" 2>&1 ||
	fab_fail "the demo's fabric scene failed after $(fab_since "$t0") s: $(tail -5 "$T/demo.out")"
took=$(fab_since "$t0")
grep '^== ' "$T/demo.out" | while IFS= read -r l; do fab_log "$l"; done
for want in "every pair verified" "the verdict, " "host 3 verified again by both its probers"; do
	grep -q "^== .*$want" "$T/demo.out" || fab_fail "the scene never said '$want': $(grep '^== ' "$T/demo.out")"
done
[ "$(head -c 8 "$T/demo/mesh.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
	fab_fail "no PNG heatmap in $T/demo/mesh.png"
fab_log "the scene took ${took} s; heatmap PNG $(stat -c %s "$T/demo/mesh.png") bytes"
