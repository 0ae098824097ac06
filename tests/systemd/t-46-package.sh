#!/bin/bash
# What the rdmad package does with the service and its configuration:
# a fresh install enables rdmad.service and starts it with the sample
# configuration (it serves); installing the package again keeps an edited
# /etc/rdmad/rdmad.ini without asking and restarts the service; dpkg -r
# stops the service and keeps the configuration; dpkg --purge removes
# /etc/rdmad and a later install starts from nothing again.  Ends
# installed and stopped, as sd_install leaves it.
source "$(dirname "$0")/lib.sh"
sd_install
sd_find_debs

# From nothing: sd_install did it where the package was not installed
# (sd_fresh_checks); else purge and install here.
if [ -f /run/rdmad-test-fresh-checked ]; then
	log "the fresh install was checked by the first test's sd_install"
	systemctl start rdmad
	wait_listen "$PORT"
else
	sd_dpkg purge0 --purge rdmad
	[ ! -e /etc/rdmad ] || fail "/etc/rdmad is left after dpkg --purge: $(ls -A /etc/rdmad)"
	sd_dpkg install -i "$DEB_RDMAD"
	sd_fresh_checks
fi

# The same package again, over an edited configuration: dpkg keeps the
# operator's file without a question (the package's copy did not change;
# stdin is /dev/null, so a question would fail dpkg) and restarts rdmad.
sd_conf "limits.max_buffer_size = 4m"
cp "$CONF" "$T/edited.ini"
pid=$(sd_pid)
sd_dpkg reinstall -i "$DEB_RDMAD"
cmp -s "$CONF" "$T/edited.ini" || fail "installing the package again replaced the edited $CONF"
ls /etc/rdmad/*.dpkg-* 2>/dev/null && fail "dpkg left a copy beside the edited $CONF"
[ "$(systemctl is-active rdmad)" = active ] || fail "rdmad is $(systemctl is-active rdmad) after the reinstall"
[ "$(sd_pid)" != "$pid" ] || fail "the reinstall did not restart rdmad (pid $pid)"
wait_listen "$PORT"
probe --op write -s 2m -n 1 >"$T/probe-edited.log" 2>&1 ||
	{ cat "$T/probe-edited.log" >&2; fail "the restarted rdmad does not run the edited configuration (2 MiB with max_buffer_size 4m)"; }

# Remove: the service stops, the configuration stays.
sd_dpkg remove -r rdmad
state=$(systemctl is-active rdmad)
[ "$state" = inactive ] || fail "after dpkg -r rdmad.service is '$state', want inactive"
[ ! -e /usr/sbin/rdmad ] || fail "dpkg -r left /usr/sbin/rdmad"
cmp -s "$CONF" "$T/edited.ini" || fail "dpkg -r did not keep $CONF"
[ -x "$PROBE" ] || fail "dpkg -r rdmad removed rdma-probe"

# Purge: the configuration goes too.
sd_dpkg purge --purge rdmad
[ ! -e /etc/rdmad ] || fail "/etc/rdmad is left after dpkg --purge: $(ls -A /etc/rdmad)"

sd_dpkg install2 -i "$DEB_RDMAD"
systemctl stop rdmad
exit 0
