#!/bin/bash
# The package's own tests (debian/tests/control) on the installed .debs,
# run by autopkgtest itself with its null runner (this guest is the test
# bed, so the isolation restrictions are met by the machine): "service"
# (starts, answers status and metrics, takes a reload) and "self-probe"
# (rdma-probe verifies READ and WRITE bytes against this host's rdmad).
# rxe is here, so neither may skip.  Then self-probe where there is no RDMA
# device (a mount namespace whose /sys/class/infiniband is empty): it says
# so and exits 77, autopkgtest's "skipped".  Ends stopped, as sd_install
# leaves it.
source "$(dirname "$0")/lib.sh"
sd_install
command -v autopkgtest >/dev/null ||
	fail "autopkgtest is not installed (tests/testbed/install-deps installs it)"

# The tests and the control file come from the source tree's debian/.
mkdir -p "$T/src"
cp -r "$RDMAD_SOURCE_DIR/debian" "$T/src/"
# apt inside autopkgtest (its dependency package, once a test) reads only
# dpkg's status: the tests' Depends are installed (sd_install), and
# Debian's package lists cost apt 4.4 s natively on the build machine
# against 0.2 s with none, a TCG guest being some twenty times slower.
# Its own lists and caches, so nothing of the system's is rewritten.
mkdir -p "$T/apt-state/lists/partial" "$T/apt-cache/archives/partial"
printf '%s\n' "Dir::State::Lists \"$T/apt-state/lists\";" \
	"Dir::Etc::SourceList \"/dev/null\";" "Dir::Etc::SourceParts \"$T/apt-state\";" \
	"Dir::Cache \"$T/apt-cache\";" >"$T/apt.conf"
export APT_CONFIG=$T/apt.conf
t0=$SECONDS
rc=0
autopkgtest --no-built-binaries --output-dir "$T/apt" \
	--ignore-restrictions=isolation-container,isolation-machine \
	"$T/src" -- null >"$T/autopkgtest.log" 2>&1 || rc=$?
unset APT_CONFIG
log "autopkgtest: exit $rc in $((SECONDS - t0)) s; summary: $(tr '\n' ';' <"$T/apt/summary" 2>/dev/null)"
[ -s "$T/apt/summary" ] || { tail -30 "$T/autopkgtest.log" >&2; fail "autopkgtest wrote no summary (exit $rc)"; }
for t in service self-probe; do
	grep -Eq "^$t +PASS\$" "$T/apt/summary" || {
		cat "$T/apt/$t-stdout" "$T/apt/$t-stderr" 2>/dev/null | tail -30 >&2
		fail "autopkgtest: $t did not pass: $(grep "^$t " "$T/apt/summary")"
	}
done
[ "$rc" = 0 ] || { tail -30 "$T/autopkgtest.log" >&2; fail "autopkgtest exited $rc with every test passed"; }
grep -q 'verification *OK' "$T/apt/self-probe-stdout" ||
	fail "self-probe passed without a verified probe in its output"

# No RDMA device: self-probe skips, saying why.
rc=0
AUTOPKGTEST_TMP=$T unshare -m sh -c 'mount -t tmpfs none /sys/class/infiniband &&
	exec "$0"' "$RDMAD_SOURCE_DIR/debian/tests/self-probe" >"$T/skip.log" 2>&1 || rc=$?
[ "$rc" = 77 ] || { cat "$T/skip.log" >&2; fail "self-probe with no RDMA device exited $rc, want 77 (skipped)"; }
grep -q 'no RDMA device' "$T/skip.log" || fail "self-probe skipped without saying why: $(cat "$T/skip.log")"
log "without an RDMA device: $(tail -1 "$T/skip.log")"
systemctl stop rdmad
exit 0
