#!/bin/bash
# Silent and killed clients: a client that connects and says nothing is
# cut off at the deadline of the state it stalled in, and logged with
# that state; a client killed with SIGKILL in each protocol state is
# cleaned up.  After every case rdmad is alive, an honest client
# verifies, resources and RSS are back to the baseline.
source "$(dirname "$0")/lib.sh"
source "$RDMAD_SOURCE_DIR/tests/hostile/lib-hostile.sh"
hostile_up 7651 "timeouts.session = 3s" "timeouts.idle = 2s" \
	"timeouts.accept = 3s" "timeouts.close = 2s" "timeouts.linger = 2s" \
	"limits.max_duration = 20s"

# Silent clients: cut off, logged with the state they stalled in.
hostile_case silent-native
wait_log 'result timeout (stalled in established/desc-sent/wait-done)' 10
hostile_case silent-rping
wait_log 'result timeout (stalled in established/idle/wait-source)' 10

# SIGKILL in every state of the native protocol.  A client killed while
# connecting may be gone before rdmad has set it up or accepted it
# ("cannot set up connection" / "cannot accept") or after (a close
# line); either way it must be logged and released.  hostile_case's
# honest session after it logs one close line of its own: two new lines.
for s in connecting established desc rdma done result; do
	pat='close: native'
	[ $s = connecting ] && pat='close: native\|cannot accept\|cannot set up connection'
	before=$(grep -c "$pat" "$T/rdmad.log")
	hostile_case kill "$s"
	for ((i = 0; i < 150; i++)); do
		[ "$(grep -c "$pat" "$T/rdmad.log")" -ge $((before + 2)) ] && break
		sleep 0.1
	done
	[ "$(grep -c "$pat" "$T/rdmad.log")" -ge $((before + 2)) ] ||
		fail "no close line for the client killed in state $s:" \
			"$(grep "$pat" "$T/rdmad.log" | tail -n +$((before + 1)))"
	log "killed in $s, then honest: $(grep "$pat" "$T/rdmad.log" | tail -n +$((before + 1)) |
		cut -d' ' -f4- | paste -sd';')"
done
rss_check
grep 'stalled in\|aborted\|client left' "$T/rdmad.log" | sed 's/^/# /' >&2
exit 0
