# shellcheck shell=bash
# tests/systemd/lib.sh - helpers for the systemd suite: the test bed guest
# booted with systemd (tests/testbed/testbed --systemd), rdmad installed by
# `meson install` into the guest's overlay root and run as rdmad.service.
source "$(dirname "${BASH_SOURCE[0]}")/../rdma/lib.sh"
[ "$(cat /proc/1/comm)" = systemd ] || fail "PID 1 is not systemd: run with testbed --systemd"

PORT=7471
PREFIX=$(meson introspect --buildoptions "$RDMAD_BUILD_DIR" 2>/dev/null |
	python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"][0])')
SYSCONF=$PREFIX/etc
[ "$PREFIX" = /usr ] && SYSCONF=/etc
CONF=$SYSCONF/rdmad/rdmad.ini

# Install once per boot (the overlay is fresh at each boot).
sd_install() {
	if [ ! -f /run/rdmad-test-installed ]; then
		meson install -C "$RDMAD_BUILD_DIR" --no-rebuild >"$T/install.log" 2>&1 ||
			{ tail -20 "$T/install.log" >&2; fail "meson install failed"; }
		journalctl --update-catalog || fail "journalctl --update-catalog failed"
		systemctl daemon-reload
		touch /run/rdmad-test-installed
	fi
	[ -f "$CONF" ] || fail "meson install did not put the sample config at $CONF"
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

probe() { cli timeout 120 "$PROBE" -I "$RDMAD_CLI_ADDR" -p "$PORT" -t 20 "$@" "$RDMAD_SRV_ADDR"; }

# The journal of this boot's rdmad.service as JSON lines.
sd_journal_json() { journalctl -u rdmad -o json --no-pager "$@"; }
