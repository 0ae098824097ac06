# shellcheck shell=bash
# tests/hostile/lib-hostile.sh - helpers of the t-5*.sh hostile-client
# tests; source after tests/rdma/lib.sh.
#
#   hostile CASE [ARG]     run rdmad-hostile against the daemon on $port
#   hostile_ok CASE [ARG]  same, fail the test unless it says "ok"
#   baseline               record the daemon's RDMA resources and RSS
#   check_after WHAT       daemon alive, an honest client verified, the
#                          resources back to the baseline
#   rss_check              RSS within $RSS_SLACK_KB of the baseline

HOSTILE=$RDMAD_BUILD_DIR/tests/hostile/rdmad-hostile
[ -x "$HOSTILE" ] || fail "rdmad-hostile not built ($HOSTILE)"
HOSTILE_TMO=${HOSTILE_TMO:-10}
# rdma-probe is the honest client here, not the code under test: in
# sanitizer builds its own leak report must not fail these tests.
PROBE_CMD=(env "ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$PROBE")
HOSTILE_KEY=${HOSTILE_KEY:-}
RSS_SLACK_KB=${RSS_SLACK_KB:-4096}
n_cases=0

hostile() {
	local k=()
	[ -n "$HOSTILE_KEY" ] && k=(-k "$HOSTILE_KEY")
	cli timeout 120 "$HOSTILE" -p "$port" -I "$RDMAD_CLI_ADDR" \
		-t "$HOSTILE_TMO" "${k[@]}" "$@" "$RDMAD_SRV_ADDR" 2>>"$T/hostile.err"
}

hostile_ok() {
	local out rc
	out=$(hostile "$@")
	rc=$?
	printf '%s\n' "$out" >>"$T/hostile.log"
	n_cases=$((n_cases + 1))
	log "$(printf '%s' "$out" | tail -1)"
	[ $rc = 0 ] && printf '%s' "$out" | grep -q '^ok ' ||
		fail "case '$*': exit $rc: $out $(tail -3 "$T/hostile.err")"
}

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

# An honest client, verified: rdma-probe, or with a key rdmad-hostile.
honest() {
	if [ -n "$HOSTILE_KEY" ]; then
		hostile honest-key >>"$T/honest.log" ||
			fail "honest keyed client failed: $(tail -2 "$T/honest.log")"
	else
		cli timeout 60 "${PROBE_CMD[@]}" -I "$RDMAD_CLI_ADDR" -p "$port" -t 20 \
			--op both -s 64k -n 3 "$RDMAD_SRV_ADDR" \
			>>"$T/honest.log" 2>&1 ||
			fail "honest probe failed: $(tail -3 "$T/honest.log")"
	fi
}

baseline() {
	honest
	honest
	wait_res_counts "$RDMAD_PID" "$(rdma_res_counts "$RDMAD_PID")" 5
	sleep 0.5
	BASE_RES=$(rdma_res_counts "$RDMAD_PID")
	BASE_RSS=$(rss_kb "$RDMAD_PID")
	log "baseline: $BASE_RES, RSS ${BASE_RSS} kB"
}

check_after() {
	rdmad_alive
	honest
	wait_res_counts "$RDMAD_PID" "$BASE_RES" 20
	rdmad_alive
}

rss_check() {
	local now
	# ASan keeps freed memory in quarantine: a looser bound there.
	grep -q 'libasan' "/proc/$RDMAD_PID/maps" 2>/dev/null &&
		RSS_SLACK_KB=${RSS_SLACK_KB_ASAN:-131072}
	now=$(rss_kb "$RDMAD_PID")
	log "RSS after $n_cases cases: ${now} kB (baseline ${BASE_RSS} kB)"
	[ "$now" -le $((BASE_RSS + RSS_SLACK_KB)) ] ||
		fail "RSS grew from ${BASE_RSS} kB to ${now} kB"
}

