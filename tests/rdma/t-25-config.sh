#!/bin/bash
# A valid file whose address no RDMA device has: rdmad exits 69
# (EX_UNAVAILABLE) saying it cannot bind it, and nothing listens.  The
# refusals of a bad file (78 with FILE:LINE, a missing file, an unknown
# option, the sample configuration accepted) are the host suite's
# t-33-config.
source "$(dirname "$0")/lib.sh"
port=7625

printf '[server]\nlisten = 192.0.2.77:%s\n' $port >"$T/noaddr.ini"
srv timeout 120 "$RDMAD" -c "$T/noaddr.ini" >"$T/noaddr.log" 2>&1
rc=$?
[ $rc = 69 ] || { cat "$T/noaddr.log" >&2; fail "unbindable address: exit $rc, want 69"; }
grep -q 'cannot bind 192.0.2.77' "$T/noaddr.log" || fail "unbindable address: no clear message"
rdma resource show cm_id | grep -q ":$port " && fail "something listens on $port after an unbindable address"
exit 0
