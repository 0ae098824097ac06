#!/bin/bash
# rdma-probe (native protocol) against rdmad: READ, WRITE and both at
# sizes 1 B .. 1 MiB, all verified; over-limit requests are rejected with
# the reason, and the daemon keeps serving.
source "$(dirname "$0")/lib.sh"
need probe
port=7621
rdmad_up $port "limits.max_buffer_size = 1m" "limits.max_iterations = 1000" "log.level = info"

probe() { cli timeout 120 "$PROBE" -p $port -t 20 "$@" "$RDMAD_SRV_ADDR"; }

n=0
for op in read write both; do
	for size in 1 7 4096 65536 1m; do
		out="$T/probe-$op-$size.log"
		probe --op $op -s $size -n 3 >"$out" 2>&1
		rc=$?
		n=$((n + 1))
		if [ $rc != 0 ]; then
			cat "$out" >&2
			tail -5 "$T/rdmad.log" >&2
			fail "probe --op $op -s $size exited $rc"
		fi
		log "probe --op $op -s $size -n 3: verified"
	done
done

# Over the limits: rejected with a reason the probe prints (exit 5).
probe -s 2m -n 1 >"$T/over-size.log" 2>&1
rc=$?
[ $rc = 5 ] || { cat "$T/over-size.log" >&2; fail "2 MiB request: exit $rc, want 5 (rejected)"; }
grep -q 'size 2097152 exceeds server limit 1048576' "$T/over-size.log" ||
	{ cat "$T/over-size.log" >&2; fail "probe did not print the reject reason"; }
probe -s 4k -n 1001 >"$T/over-iters.log" 2>&1
rc=$?
[ $rc = 5 ] || { cat "$T/over-iters.log" >&2; fail "1001 iterations: exit $rc, want 5"; }
grep -q 'rejected (over limit): size 2097152 exceeds server limit' "$T/rdmad.log" ||
	fail "rdmad did not log the rejection"

# Still serving, and everything released.
probe --op both -s 64k -n 5 >"$T/after.log" 2>&1 || fail "probe after rejects failed"
kill -0 $rpid 2>/dev/null || fail "rdmad died"
wait_res_counts $rpid "$base" 20
ok=$(grep -c 'close: native, result ok' "$T/rdmad.log")
[ "$ok" = $((n + 1)) ] || { grep close: "$T/rdmad.log" | tail >&2; fail "rdmad logged $ok ok closes, want $((n + 1))"; }
log "rdmad: $ok sessions closed ok, 2 rejected; resources back to $base"
exit 0
