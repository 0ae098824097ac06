# shellcheck shell=bash
# tests/systemd/lib.sh - helpers for the systemd suite: the test bed guest
# booted with systemd (tests/testbed/testbed --systemd), rdmad installed
# from its Debian packages (dpkg -i of $RDMAD_DEB_DIR/{rdmad,rdma-probe}_*.deb,
# built by tests/deb/build-deb; tests/run-tests sets it) into the guest's
# overlay root and run as rdmad.service.
source "$(dirname "${BASH_SOURCE[0]}")/../rdma/lib.sh"
[ "$(cat /proc/1/comm)" = systemd ] || fail "PID 1 is not systemd: run with testbed --systemd"

PORT=7471
PREFIX=/usr
CONF=/etc/rdmad/rdmad.ini
# The client the rdma-probe package installed.
PROBE=$PREFIX/bin/rdma-probe

# sd_find_debs: DEB_RDMAD and DEB_PROBE, the packages in $RDMAD_DEB_DIR.
sd_find_debs() {
	local dir=${RDMAD_DEB_DIR:-} p f
	[ -n "$dir" ] || fail "RDMAD_DEB_DIR is not set: build the package first (tests/deb/build-deb DIR) and set RDMAD_DEB_DIR=DIR"
	for p in rdmad rdma-probe; do
		f=$(find "$dir" -maxdepth 1 -name "${p}_*.deb" | sort | tail -1)
		[ -n "$f" ] || fail "no ${p}_*.deb in $dir: build the package first: tests/deb/build-deb $dir"
		case $p in rdmad) DEB_RDMAD=$f ;; *) DEB_PROBE=$f ;; esac
	done
}

# sd_dpkg LOGNAME ARG...: dpkg with no terminal to ask on (a conffile
# question fails it), its output in $T/LOGNAME.log.
sd_dpkg() {
	local name=$1 t0=$SECONDS
	shift
	dpkg "$@" </dev/null >"$T/$name.log" 2>&1 ||
		{ tail -20 "$T/$name.log" >&2; fail "dpkg $* failed"; }
	log "dpkg $*: $((SECONDS - t0))s"
}

# The guest is a machine of its own; two settings of this host's image
# would get in the way there, so they go from the guest's overlay only (the
# host's files stay): a policy-rc.d (a container image's "no service
# actions", exit 101), which makes the package's scripts neither start nor
# stop rdmad; and man-db's auto-update, whose dpkg trigger re-indexes every
# manual page: over the 9p root under TCG the first run took over 200 s.
sd_guest_prepare() {
	[ -e /usr/sbin/policy-rc.d ] || [ -e /var/lib/man-db/auto-update ] || return 0
	[ "$RDMAD_TESTBED_MODE" = guest ] || {
		[ ! -e /usr/sbin/policy-rc.d ] ||
			fail "/usr/sbin/policy-rc.d forbids the package's service actions on this host"
		return 0
	}
	log "removing /usr/sbin/policy-rc.d and /var/lib/man-db/auto-update from the guest's overlay"
	rm -f /usr/sbin/policy-rc.d /var/lib/man-db/auto-update
}

# sd_fresh_checks: what a fresh install of the rdmad package must do:
# rdmad.service enabled and started with the sample configuration, which
# listens on every RDMA device, port 7471, and serves.
sd_fresh_checks() {
	local state
	state=$(systemctl is-enabled rdmad)
	[ "$state" = enabled ] || fail "after install rdmad.service is '$state', want enabled"
	state=$(systemctl is-active rdmad)
	[ "$state" = active ] ||
		{ journalctl -u rdmad --no-pager | tail -20 >&2; fail "after install rdmad.service is '$state', want active (started by the package)"; }
	cmp -s "$CONF" "$RDMAD_SOURCE_DIR/conf/rdmad.ini" || fail "$CONF is not the sample conf/rdmad.ini"
	wait_listen "$PORT"
	probe -s 4k -n 2 >"$T/probe-sample.log" 2>&1 ||
		{ cat "$T/probe-sample.log" >&2; fail "the service the package started does not serve"; }
	log "installed: enabled, active (pid $(sd_pid)), serves with the sample configuration"
}

# Install once per boot (the overlay is fresh at each boot).  Where the
# packages were not installed before (the test bed guest), this is the
# fresh install: its checks run here (sd_fresh_checks; t-46 then needs no
# purge and install of its own: each dpkg run costs a minute or more in a
# TCG guest).  The tests start rdmad with their own configuration, so it
# is stopped here, at every test's start: a test that left it running
# (t-45 does) must not hand the next one a service it did not start
# (t-48 found rdmad active where its start had to fail).
sd_install() {
	if [ ! -f /run/rdmad-test-installed ]; then
		sd_find_debs
		sd_guest_prepare
		local fresh=1
		dpkg-query -W -f '${Status}' rdmad 2>/dev/null | grep -q ' installed$' && fresh=0
		sd_dpkg install -i "$DEB_RDMAD" "$DEB_PROBE"
		if [ "$fresh" = 1 ]; then
			sd_fresh_checks
			touch /run/rdmad-test-fresh-checked
		fi
		touch /run/rdmad-test-installed
	fi
	systemctl stop rdmad
	[ -f "$CONF" ] || fail "the package did not put the sample config at $CONF"
}

# sd_conf [LINE...]: the service's config, listening on the server address;
# LINE as for rdmad_conf ("section.key = value").
sd_conf() {
	rdmad_conf "$PORT" "$@"
	cp "$T/rdmad.ini" "$CONF"
}

sd_start() {
	systemctl reset-failed rdmad 2>/dev/null
	systemctl start rdmad || { journalctl -u rdmad --no-pager | tail -20 >&2; fail "systemctl start rdmad failed"; }
	[ "$(systemctl is-active rdmad)" = active ] || fail "rdmad is $(systemctl is-active rdmad) after start"
	wait_listen "$PORT"
}

sd_pid() { systemctl show -p MainPID --value rdmad; }

# Drop-ins for rdmad.service, under /etc (where an operator puts them)
SD_DROPIN=/etc/systemd/system/rdmad.service.d
sd_dropin() { # sd_dropin NAME TEXT: [Service] TEXT as NAME.conf, the unit reloaded
	mkdir -p "$SD_DROPIN"
	printf '[Service]\n%s\n' "$2" >"$SD_DROPIN/$1.conf"
	systemctl daemon-reload
}
sd_dropin_rm() { # sd_dropin_rm NAME...: those drop-ins gone, the unit reloaded
	local n
	for n in "$@"; do rm -f "$SD_DROPIN/$n.conf"; done
	systemctl daemon-reload
}

probe() { cli timeout 120 "$PROBE" -I "$RDMAD_CLI_ADDR" -p "$PORT" -t 20 "$@" "$RDMAD_SRV_ADDR"; }

# The journal of this boot's rdmad.service as JSON lines.
sd_journal_json() { journalctl -u rdmad -o json --no-pager "$@"; }
