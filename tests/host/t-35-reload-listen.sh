#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# SIGHUP re-binds listen addresses, on rdmad-fake (its /probe of itself
# is the client): added ones listen, removed ones stop (a probe of it is
# refused), a live session on a removed address goes on to its verified
# end; an address that cannot listen (its port taken: the wildcard beside
# a kept address) makes the reload fail as a whole: the address it added
# does not listen, the kept one is still served.  The rdma guest's t-28
# keeps an address no device has.
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"

a=7681 b=7682 c=7683
A=$RDMAD_SRV_ADDR
http=127.0.0.1:$(free_port)
# conf LISTEN...: module live is long enough to outlive a reload (some
# seconds of the fake's).
conf() {
	ini_text "$*" "http.listen = $http" "log.level = info" \
		"limits.max_iterations = 1000000" >"$T/rdmad.ini"
	printf '[module.live]\nsize = 64\niterations = 1000000\ntimeout = 60s\n' >>"$T/rdmad.ini"
}
# probe_self OUT PORT [MODULE]: /probe of rdmad's listener on PORT, in $T/OUT.
probe_self() {
	curl -s --max-time 90 "http://$http/probe?target=$A:$2&module=${3:-default}" >"$T/$1"
}
conf "$A:$a"
rdmad_start

# A session long enough to outlive the reload, established before it.
probe_self live.out $a live &
live=$!
wait_log 'open: native, ops read+write, size 64, 1000000 iterations' 60

conf "$A:$b"
kill -HUP "$RDMAD_PID"
wait_log "reload: no longer listening on $A:$a" 10
grep -q "reload: listening on $A:$b" "$T/rdmad.log" || fail "no 'reload: listening on' in the log"
grep -q 'close: native' "$T/rdmad.log" &&
	fail "the live session ended before the reload was done (module live too short for this machine)"

probe_self new.out $b
grep -q '^probe_success 1$' "$T/new.out" || fail "probe on the new port failed: $(cat "$T/new.out")"
probe_self old.out $a
grep -q '^probe_rdma_failed{class="\(refused\|unreachable\)"} 1$' "$T/old.out" ||
	fail "probe on the removed port: not refused: $(cat "$T/old.out")"
wait $live
grep -q '^probe_success 1$' "$T/live.out" && grep -q '^probe_rdma_bytes_verified [1-9]' "$T/live.out" ||
	fail "the live session on the removed port did not finish verified: $(cat "$T/live.out")"

# An address that cannot listen: refused as a whole, :$b still served,
# :$c (added beside it) not listening.
conf "$A:$b" "$A:$c" "0.0.0.0:$b"
kill -HUP "$RDMAD_PID"
wait_log "reload refused: cannot listen on 0.0.0.0:$b" 10
probe_self after.out $b
grep -q '^probe_success 1$' "$T/after.out" || fail "the old listener did not survive a refused reload: $(cat "$T/after.out")"
probe_self added.out $c
grep -q '^probe_rdma_failed{class="\(refused\|unreachable\)"} 1$' "$T/added.out" ||
	fail "an address of the refused reload listens: $(cat "$T/added.out")"
rdmad_alive
exit 0
