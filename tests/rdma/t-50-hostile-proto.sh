#!/bin/bash
# Hostile clients, protocol level: malformed, short, oversized and
# overflowing hellos (connect private data) and messages; wrong magic,
# version, type, length; DONEs that lie.  After every case rdmad is alive, an honest client verifies,
# and rdmad's RDMA resources are back to the baseline; at the end its
# RSS too.
source "$(dirname "$0")/lib.sh"
source "$RDMAD_SOURCE_DIR/tests/hostile/lib-hostile.sh"
hostile_up 7650 "limits.max_buffer_size = 1m" "limits.max_iterations = 1000" \
	"timeouts.session = 5s" "timeouts.idle = 3s" "timeouts.accept = 3s" \
	"log.level = info"

for c in hello-bad-magic hello-bad-version hello-short hello-reserved \
	hello-trailing hello-no-ops hello-bad-ops hello-zero-size \
	hello-huge-size hello-huge-iters \
	msg-short msg-empty msg-oversized msg-bad-magic msg-bad-version \
	msg-bad-type msg-len-mismatch msg-desc-to-server msg-auth-unasked \
	done-twice done-overflow done-wrong-data; do
	hostile_case "$c"
done
rss_check
grep -c 'close: ' "$T/rdmad.log" | sed 's/^/# close lines: /' >&2
grep -q 'result bad-message' "$T/rdmad.log" || fail "no bad-message close logged"
grep -q 'result bad-done' "$T/rdmad.log" || fail "no bad-done close logged"
grep -q 'result mismatch' "$T/rdmad.log" || fail "no mismatch close logged"
grep -q 'rejected (bad hello)' "$T/rdmad.log" || fail "no bad-hello reject logged"
exit 0
