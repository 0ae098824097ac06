#!/bin/bash
# The installed unit as shipped (ProcSubset=pid, DynamicUser=, ...), with
# a web config (TLS and basic auth) and a mesh, scraped through rdmadctl:
#  1. A TLS key 0600 root:root is not readable by the dynamic user: the
#     start fails and the journal names the key (what docs/systemd.md
#     answers).
#  2. The documented way: the key 0640 root:ssl-cert and the package's
#     example drop-in (SupplementaryGroups=ssl-cert).  Every process_*
#     family is there (start time as /proc/stat's btime gives it, the
#     fd limit the unit's); the mesh's rounds carry the host's CPU
#     pressure (PSI, read from the root cgroup's cpu.pressure where the
#     sandbox hides /proc/pressure), which rises under a CPU hog; the
#     journal says where PSI came from, never that the kernel has none.
#     The exposure of systemd-analyze security with the drop-in is logged.
#  3. Rotation: a key and certificate of a new CA, written beside and
#     mv'd over the old, and systemctl reload: the new one is served.
#  4. PSI hidden twice (a drop-in with InaccessiblePaths= over the
#     cgroup's file): the journal blames the sandbox, not the kernel.
# LoadCredential= is not run: under systemd 252 (the test bed's) the
# unit's dynamic user could not read its credentials (docs/systemd.md).
source "$(dirname "$0")/lib.sh"
sd_install
CTL=$PREFIX/bin/rdmadctl
DROPIN=$SD_DROPIN
WEB=/etc/rdmad/web-config.yml
KEY=/etc/ssl/private/rdmad.key
CRT=/etc/rdmad/rdmad.crt
C=$T/tls
mkdir -p "$C"
for t in openssl python3 getconf; do command -v $t >/dev/null || fail "no $t"; done
getent group ssl-cert >/dev/null || fail "no ssl-cert group (apt install ssl-cert)"

cleanup() {
	cleanup_jobs
	rm -f "$DROPIN/tls.conf" "$DROPIN/psi-hidden.conf" "$WEB" "$KEY" "$CRT" \
		/etc/rdmad/peers
	systemctl daemon-reload
	systemctl stop rdmad
}
trap cleanup EXIT

# The PKI (tests/lib.sh): two CAs, a server certificate of each for
# 127.0.0.1; the user "prom" with a bcrypt hash of cost 04 (a TCG guest
# takes seconds for cost 10).
tls_ca "$C" ca
tls_ca "$C" ca2
tls_leaf "$C" server ca "subjectAltName=IP:127.0.0.1"
tls_leaf "$C" server2 ca2 "subjectAltName=IP:127.0.0.1"
(umask 077 && printf 's3cret pw\n' >"$C/password")
hash=$(bcrypt_hash 's3cret pw' 16)
case $hash in '$2b$04$'*) ;; *) fail "python3 crypt gave no bcrypt hash: '$hash'" ;; esac

# web KEYFILE CERTFILE: the web config, readable by the service.
web() {
	install -m 0644 /dev/null "$WEB"
	printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\nbasic_auth_users:\n  prom: %s\n' \
		"$2" "$1" "'$hash'" >"$WEB"
}
# put NAME MODE OWNER:GROUP DEST: install $C/NAME as DEST the way the
# docs say to rotate: a new file beside it, then mv over it.
put() {
	install -m "$2" -o "${3%%:*}" -g "${3#*:}" "$C/$1" "$4.new" || fail "install $4"
	mv -f "$4.new" "$4"
}
# ctl CA ARG...: rdmadctl over TLS with the password, trusting CA.
ctl() {
	local ca=$1
	shift
	"$CTL" --cacert "$C/$ca.crt" --user prom --password-file "$C/password" "$@"
}
# served CA: the endpoint answers /metrics with a certificate of CA,
# within 30 s; the metrics in $T/metrics.prom.
served() {
	local end=$((SECONDS + 30))
	until ctl "$1" metrics >"$T/metrics.prom" 2>"$T/ctl.err"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.2
	done
}
# mark: journal shows from here on; journal: the unit's lines since.
mark() { CURSOR=$(journalctl -u rdmad -n 0 --show-cursor --no-pager | sed -n 's/^-- cursor: //p'); }
journal() { journalctl -u rdmad --no-pager -o cat ${CURSOR:+--after-cursor "$CURSOR"}; }
# reloaded: systemctl reload, and wait for rdmad's line saying it is done.
reloaded() {
	mark
	systemctl reload rdmad || fail "systemctl reload"
	log_wait "reload: configuration re-read" || fail "no reload line in the journal: $(journal | tail -12)"
}
log_wait() { # log_wait PATTERN: the journal has it within 20 s
	local end=$((SECONDS + 20))
	until journal | grep -q -- "$1"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.2
	done
}

# A peer for the mesh: the installed rdmad as a plain process.
declare -A SPID
RDMAD=$PREFIX/sbin/rdmad rdmad_serve 7472
install -m 0644 /dev/null /etc/rdmad/peers
echo "$RDMAD_SRV_ADDR:7472" >/etc/rdmad/peers
sd_conf "http.web_config = $WEB" "mesh.targets = /etc/rdmad/peers" \
	"mesh.interval = 200ms" "mesh.sizes = 64" "mesh.paths = 1" \
	"mesh.round_timeout = 5s" "mesh.connect_timeout = 2s"

# --- 1. a root-only key --------------------------------------------------
put server.crt 0644 root:root "$CRT"
put server.key 0600 root:root "$KEY"
web "$KEY" "$CRT"
systemctl reset-failed rdmad 2>/dev/null
mark
systemctl start rdmad 2>/dev/null
[ "$(systemctl is-active rdmad)" != active ] || fail "rdmad is active with a key only root can read"
log_wait "$KEY.*[Pp]ermission denied" ||
	{ journal | tail -5 >&2; fail "the journal does not say $KEY cannot be read"; }
log "a 0600 root:root key: the start fails: $(journal | grep -m1 "$KEY")"
systemctl stop rdmad
systemctl reset-failed rdmad

# --- 2. the group, as shipped ------------------------------------------------
example=$PREFIX/share/doc/rdmad/examples/tls-ssl-cert.conf
[ -f "$example" ] || fail "the package has no $example"
mkdir -p "$DROPIN"
install -m 0644 "$example" "$DROPIN/tls.conf"
systemctl daemon-reload
put server.key 0640 root:ssl-cert "$KEY"
mark
sd_start
pid=$(sd_pid)
served ca || fail "rdmadctl metrics over TLS with the key 0640 root:ssl-cert: $(cat "$T/ctl.err"); $(journal | tail -12)"
ctl ca status >"$T/status.txt" || fail "rdmadctl status over TLS"
grep -q "^rdmad [0-9.]*, pid $pid, up " "$T/status.txt" || fail "rdmadctl status: $(head -1 "$T/status.txt")"
RDMADCTL_PASSWORD=wrong "$CTL" --cacert "$C/ca.crt" --user prom metrics >/dev/null 2>&1 &&
	fail "a wrong password is let through"

for f in process_cpu_seconds_total process_resident_memory_bytes \
	process_virtual_memory_bytes process_open_fds process_max_fds \
	process_start_time_seconds; do
	grep -q "^$f " "$T/metrics.prom" || fail "no $f under the unit (ProcSubset=pid): $(grep -c '^process_' "$T/metrics.prom") process_* samples"
done
# As client libraries compute it, from outside the sandbox: btime of
# /proc/stat + starttime (22) of /proc/PID/stat.
want=$(awk -v tck="$(getconf CLK_TCK)" 'NR == FNR { if ($1 == "btime") b = $2; next }
	{ sub(/.*\) /, ""); printf "%.3f", b + $20 / tck }' /proc/stat "/proc/$pid/stat")
got=$(prom_sum "$T/metrics.prom" process_start_time_seconds)
awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < 0.001 || (d > 0.999 && d < 1.001)) }' ||
	fail "process_start_time_seconds $got, /proc/stat's btime + starttime give $want"
lim=$(awk '/^Max open files/ { print $4 }' "/proc/$pid/limits")
[ "$(prom_sum "$T/metrics.prom" process_max_fds)" = "$lim" ] ||
	fail "process_max_fds $(prom_sum "$T/metrics.prom" process_max_fds), the unit's limit $lim"
awk '/^process_resident_memory_bytes / { exit !($2 > 0) }' "$T/metrics.prom" || fail "process_resident_memory_bytes is 0"
log "process_*: start $got (btime + starttime $want), max fds $lim, rss $(prom_sum "$T/metrics.prom" process_resident_memory_bytes)"

# PSI: the rounds' figure is there, and rises while four loops hog
# the guest's CPUs.
end=$((SECONDS + 60))
until [ "$(prom_sum "$T/metrics.prom" rdmad_mesh_rounds_total 'result="ok"')" -ge 3 ] &&
	grep -q '^rdmad_mesh_round_cpu_pressure_seconds_total ' "$T/metrics.prom"; do
	[ $SECONDS -lt $end ] || fail "after 60 s: ok rounds $(prom_sum "$T/metrics.prom" rdmad_mesh_rounds_total 'result="ok"'), $(grep -c '^rdmad_mesh_round_cpu_pressure_seconds_total ' "$T/metrics.prom") PSI sample; journal: $(journal | grep mesh: | head -5)"
	sleep 0.5
	ctl ca metrics >"$T/metrics.prom" || fail "rdmadctl metrics"
done
psi0=$(prom_sum "$T/metrics.prom" rdmad_mesh_round_cpu_pressure_seconds_total)
hogs=()
for i in 1 2 3 4; do
	(while :; do :; done) &
	hogs+=($!)
done
end=$((SECONDS + 60))
while :; do
	ctl ca metrics >"$T/metrics.prom" || fail "rdmadctl metrics under the hog"
	psi1=$(prom_sum "$T/metrics.prom" rdmad_mesh_round_cpu_pressure_seconds_total)
	awk -v a="$psi1" -v b="$psi0" 'BEGIN { exit !(a > b) }' && break
	[ $SECONDS -lt $end ] || fail "the rounds' CPU pressure stayed at $psi0 s for 60 s of four CPU hogs"
	sleep 0.5
done
kill "${hogs[@]}"
wait "${hogs[@]}" 2>/dev/null
journal | grep -q "mesh: the host's CPU pressure (PSI) is read from /sys/fs/cgroup/cpu.pressure" ||
	fail "the journal does not say where PSI is read from: $(journal | grep mesh: | head -5)"
! journal | grep -qi "no CPU pressure\|has no PSI" || fail "the journal says there is no PSI: $(journal | grep -i 'pressure' | head -3)"
log "PSI in rounds: $psi0 s, $psi1 s under four CPU hogs; $(journal | grep -m1 "CPU pressure")"

systemd-analyze security rdmad --no-pager >"$T/security.txt" 2>&1
log "systemd-analyze security with SupplementaryGroups=ssl-cert: $(sed -n 's/.*Overall exposure level for rdmad.service: //p' "$T/security.txt")"

# --- 3. rotation: mv and reload ---------------------------------------------
put server2.crt 0644 root:root "$CRT"
put server2.key 0640 root:ssl-cert "$KEY"
reloaded
served ca2 || fail "after mv and reload the new certificate is not served: $(cat "$T/ctl.err")"
[ "$(sd_pid)" = "$pid" ] || fail "the reload restarted rdmad"
ctl ca metrics >/dev/null 2>&1 && fail "the old certificate is still served after the reload"
log "rotation: the new key and certificate served after mv and systemctl reload"

# --- 4. PSI hidden from both places ----------------------------------------
sd_dropin psi-hidden "InaccessiblePaths=/sys/fs/cgroup/cpu.pressure"
mark
systemctl restart rdmad || fail "restart with psi-hidden.conf: $(journal | tail -12)"
served ca2 || fail "scrape with psi-hidden.conf: $(cat "$T/ctl.err")"
log_wait "mesh: no CPU pressure (PSI)" ||
	fail "no PSI line in the journal with both files hidden: $(journal | grep -i 'mesh:\|pressure' | head -5)"
line=$(journal | grep -m1 "mesh: no CPU pressure (PSI)")
log "both hidden: $line"
grep -q "/proc/pressure/cpu: .*hidden by the sandbox.*ProcSubset=pid" <<<"$line" || fail "/proc/pressure/cpu is not said to be hidden by the sandbox"
grep -q "/sys/fs/cgroup/cpu.pressure: Permission denied, unreadable here" <<<"$line" || fail "the cgroup's file is not said to be unreadable"
grep -qi "kernel" <<<"$line" && fail "a hidden file is blamed on the kernel"
rm -f "$DROPIN/psi-hidden.conf"
exit 0
