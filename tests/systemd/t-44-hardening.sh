#!/bin/bash
# Hardening that still works: rdmad runs unprivileged, without new
# privileges, with a read-only system, and serves; the exposure score of
# systemd-analyze security is printed and held to what we reached.
source "$(dirname "$0")/lib.sh"
sd_install
sd_conf
sd_start
pid=$(sd_pid)
uid=$(awk '/^Uid:/ { print $2 }' /proc/$pid/status)
[ "$uid" != 0 ] || fail "rdmad runs as root"
grep -q '^NoNewPrivs:[[:space:]]*1' /proc/$pid/status || fail "NoNewPrivs is not set"
grep -q '^CapEff:[[:space:]]*0000000000000000' /proc/$pid/status || fail "rdmad has capabilities: $(grep CapEff /proc/$pid/status)"
probe --op both -s 1m -n 4 >"$T/probe.log" 2>&1 || { cat "$T/probe.log" >&2; fail "hardened rdmad does not serve"; }
systemd-analyze security rdmad --no-pager >"$T/security.txt" 2>&1
score=$(sed -n 's/.*Overall exposure level for rdmad.service: \([0-9.]*\).*/\1/p' "$T/security.txt")
log "systemd-analyze security: exposure $score"
[ -n "$score" ] || { tail "$T/security.txt" >&2; fail "no exposure score"; }
awk -v s="$score" 'BEGIN { exit !(s <= 2.5) }' || { grep '✗' "$T/security.txt" >&2; fail "exposure $score > 2.5"; }
systemctl stop rdmad
exit 0
