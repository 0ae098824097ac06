#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Bad configuration: the real rdmad exits 78 (EX_CONFIG) with FILE:LINE,
# and tries nothing of RDMA (its strace); a missing file 78;
# --check-config accepts the sample configuration; an unknown option 64.
# The rdma guest's t-25 keeps an address no RDMA device has (69).
# shellcheck source=tests/host/lib.sh
source "$(dirname "$0")/lib.sh"
port=7625

expect78() {	# NAME TEXT WANT-IN-MESSAGE
	printf '%b' "$2" >"$T/$1.ini"
	real_start_traced "$T/$1.ini" "$T/$1.log"
	[ $rc = 78 ] || { cat "$T/$1.log" >&2; fail "$1: exit $rc, want 78"; }
	grep -qF "$T/$1.ini:$3" "$T/$1.log" ||
		{ cat "$T/$1.log" >&2; fail "$1: message lacks '$T/$1.ini:$3'"; }
	log "$1: exit 78, $(grep -o "$1.ini:.*" "$T/$1.log")"
}
expect78 unknown-key "[server]\nlisten = $RDMAD_SRV_ADDR:$port\nlisen = 1\n" \
	"3: unknown key 'lisen' in section [server]"
expect78 unknown-section "\n[srever]\nlisten = x\n" "3: unknown section [srever]"
expect78 bad-size "[limits]\n# comment\nmax_buffer_size = 12q\n" "3: max_buffer_size"
expect78 bad-listen "[server]\nlisten = $RDMAD_SRV_ADDR:99999\n" "2: listen"
expect78 bad-level "[log]\nlevel = chatty\n" "2: level"
expect78 syntax "[server]\nmax_connections\n" "2: syntax error"

"$REAL_RDMAD" -c /nonexistent/rdmad.ini >"$T/missing.log" 2>&1
rc=$?
[ $rc = 78 ] || fail "missing file: exit $rc, want 78"
grep -q '/nonexistent/rdmad.ini: cannot open' "$T/missing.log" || fail "missing file: no clear message"

"$REAL_RDMAD" --check-config -c "$RDMAD_SOURCE_DIR/conf/rdmad.ini" >"$T/sample.log" 2>&1 ||
	{ cat "$T/sample.log" >&2; fail "conf/rdmad.ini does not pass --check-config"; }
"$REAL_RDMAD" --bogus-option >/dev/null 2>&1
rc=$?
[ $rc = 64 ] || fail "unknown option: exit $rc, want 64"
exit 0
