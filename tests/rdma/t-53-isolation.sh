#!/bin/bash
# Isolation and least privilege: a client presenting another live
# client's rkey and address gets a remote access error and the victim's
# data stays intact; an rkey of a finished session is dead; a buffer
# registered for READ refuses WRITE and vice versa; rping adverts that
# overflow, exceed the limit or point at memory the client does not own
# end only that connection.  After every case rdmad is alive, an honest
# client verifies, resources and RSS are back to the baseline.
source "$(dirname "$0")/lib.sh"
source "$RDMAD_SOURCE_DIR/tests/hostile/lib-hostile.sh"
need probe
port=7653
rdmad_conf $port "limits.max_buffer_size = 1m" "timeouts.session = 10s" \
	"timeouts.idle = 3s" "timeouts.io = 3s"
rdmad_start
baseline
for c in steal stale-rkey least-read least-write \
	rping-overflow rping-huge rping-zero rping-short rping-long \
	rping-bad-rkey rping-beyond-mr; do
	hostile_case "$c"
done
rss_check
grep -q 'over-limit' "$T/rdmad.log" || fail "no over-limit close logged"
grep -q 'result completion-error' "$T/rdmad.log" ||
	fail "no completion-error close (bad rkey) logged"
exit 0
