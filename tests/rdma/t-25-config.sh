#!/bin/bash
# Bad configuration: rdmad exits 78 (EX_CONFIG) with FILE:LINE, and
# starts nothing.  --check-config accepts the sample configuration.
source "$(dirname "$0")/lib.sh"
port=7625

expect78() {	# NAME TEXT WANT-IN-MESSAGE
	printf '%b' "$2" >"$T/$1.ini"
	srv timeout 120 "$RDMAD" -c "$T/$1.ini" >"$T/$1.log" 2>&1
	rc=$?
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
rdma resource show cm_id | grep -q ":$port " && fail "something listens on $port after config errors"

srv "$RDMAD" -c /nonexistent/rdmad.ini >"$T/missing.log" 2>&1
rc=$?
[ $rc = 78 ] || fail "missing file: exit $rc, want 78"
grep -q '/nonexistent/rdmad.ini: cannot open' "$T/missing.log" || fail "missing file: no clear message"

srv "$RDMAD" --check-config -c "$RDMAD_SOURCE_DIR/conf/rdmad.ini" >"$T/sample.log" 2>&1 ||
	{ cat "$T/sample.log" >&2; fail "conf/rdmad.ini does not pass --check-config"; }
srv "$RDMAD" --bogus-option >/dev/null 2>&1
rc=$?
[ $rc = 64 ] || fail "unknown option: exit $rc, want 64"

# A valid file whose address no RDMA device has: 69, nothing listening.
printf '[server]\nlisten = 192.0.2.77:%s\n' $port >"$T/noaddr.ini"
srv timeout 120 "$RDMAD" -c "$T/noaddr.ini" >"$T/noaddr.log" 2>&1
rc=$?
[ $rc = 69 ] || { cat "$T/noaddr.log" >&2; fail "unbindable address: exit $rc, want 69"; }
grep -q 'cannot bind 192.0.2.77' "$T/noaddr.log" || fail "unbindable address: no clear message"
exit 0
