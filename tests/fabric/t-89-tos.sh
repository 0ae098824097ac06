#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The traffic class on the wire: rdma-probe --tos 0x68 (DSCP 26) from host 2
# to rdmad on host 1, a native session and a mesh session (--rounds);
# tcpdump on host 1's eth0 captures RoCEv2 (UDP 4791) both ways.  Every
# packet of the probe's connection (BTH destination QP other than 1, the
# CM's) must carry IP TOS 0x68; without --tos the same run carries 0x00
# (rdma_cm's default_roce_tos), so the test fails if the option is not set
# (seen: the TOS call made a no-op, the first check fails).  The CM's
# packets (QP 1) and rdmad's answers are counted and their TOS logged.
# Then the mesh agent: rdmad on host 2 with [mesh] tos = 0x68 probing
# host 1 every 200 ms; its rounds carry 0x68 on the wire too.
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 2
A1=$(fab_addr 1) A2=$(fab_addr 2)

fab_rdmad_start 1 7471

# tos_run NAME PROBE-ARGS [CMD]: capture UDP 4791 on host 1's eth0 while
# host 2 runs rdma-probe PROBE-ARGS against host 1 (or the shell command
# CMD instead); the capture's summary in
# $T/NAME.sum: "probe=N probe_tos=T[,T...] cm=N cm_tos=... rdmad=N
# rdmad_tos=..." (the TOS values seen, in hex, sorted; "-": no packet).
tos_run() {
	local name=$1 args=$2 cmd=${3:-} out k
	fab_spawn 1 "cap-$name" "exec tcpdump -i eth0 -nn -U -Z root -s 96 -w \$T/$name.pcap 'udp port 4791' 2>&1"
	for ((k = 0; k < 300; k++)); do
		grep -q 'listening on' "$(fab_dir 1)/shared/out/cap-$name.out" 2>/dev/null && break
		sleep 0.1
	done
	[ "$k" -lt 300 ] || fab_fail "$name: tcpdump on host 1 did not start: $(fab_wait 1 "cap-$name" 5)"
	[ -n "$cmd" ] || cmd="\$PROBE -t 5 $args $A1"
	fab_sh 2 "$cmd" >"$T/$name.probe" 2>&1 ||
		fab_fail "$name: '$cmd' failed: $(tail -5 "$T/$name.probe")"
	sleep 0.5
	fab_sh 1 -t 30 "pkill -INT -x tcpdump" >/dev/null
	out=$(fab_wait 1 "cap-$name" 30) || fab_fail "$name: tcpdump: $out"
	fab_log "$name: tcpdump: $(grep -E 'packets (captured|dropped by kernel)' <<<"$out" | tr '\n' ' ')"
	fab_sh 1 -t 60 "python3 - \$T/$name.pcap $A1 $A2 <<'PY'
import socket, struct, sys
data = open(sys.argv[1], 'rb').read()
me, peer = sys.argv[2], sys.argv[3]
end = '<' if data[:4] in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1') else '>'
if struct.unpack(end + 'I', data[20:24])[0] != 1:
    sys.exit('not an Ethernet capture')
seen = {'probe': {}, 'cm': {}, 'rdmad': {}}
off = 24
while off + 16 <= len(data):
    incl = struct.unpack(end + 'I', data[off + 8:off + 12])[0]
    p = data[off + 16:off + 16 + incl]
    off += 16 + incl
    if len(p) < 14 + 20 + 8 + 8 or p[12:14] != b'\x08\x00':
        continue
    ip = p[14:]
    ihl = (ip[0] & 15) * 4
    tos, src = ip[1], socket.inet_ntoa(ip[12:16])
    udp = ip[ihl:]
    if ip[9] != 17 or 4791 not in struct.unpack('>HH', udp[:4]):
        continue
    dqp = int.from_bytes(udp[8 + 5:8 + 8], 'big')
    kind = 'cm' if dqp == 1 else 'probe' if src == peer else 'rdmad'
    if kind == 'cm' or src in (me, peer):
        seen[kind][tos] = seen[kind].get(tos, 0) + 1
def fmt(k):
    return '%s=%d %s_tos=%s' % (k, sum(seen[k].values()), k,
        ','.join('0x%02x' % t for t in sorted(seen[k])) or '-')
print(' '.join(fmt(k) for k in ('probe', 'cm', 'rdmad')))
PY" >"$T/$name.sum" || fab_fail "$name: cannot read the capture: $(cat "$T/$name.sum")"
}

# want NAME WHAT TOS: capture NAME has 20 or more of the probe's packets,
# every one with TOS; its summary is logged.
want() {
	local s n
	s=$(cat "$T/$1.sum")
	fab_log "$2: $s"
	n=$(sed -n 's/.*probe=\([0-9]*\) .*/\1/p' <<<"$s")
	[ "${n:-0}" -ge 20 ] || fab_fail "$2: only ${n:-0} packets of the probe's connection captured: $s"
	[[ $s == *"probe_tos=$3 "* ]] || fab_fail "$2: the probe's packets carry TOS other than $3: $s"
}

tos_run tos-native "--tos 0x68 -s 4k -n 20"
want tos-native "native, --tos 0x68" 0x68
tos_run tos-mesh "--tos 0x68 --rounds 10 --interval 0 -s 1100"
want tos-mesh "mesh --rounds 10, --tos 0x68" 0x68
tos_run tos-none "-s 4k -n 20"
want tos-none "native, no --tos" 0x00
fab_log "the probe's packets on the wire: IP TOS 0x68 (DSCP 26) with --tos 0x68, 0x00 without"

# The mesh agent: [mesh] tos on host 2's rdmad, probing host 1, stopped
# once it verified 12 rounds (some 3 packets of its own each; 60 s at
# most).
tos_run tos-agent "" "echo $A1 >\$T/peers &&
printf '[server]\\nlisten = %s:7471\\n[mesh]\\ntargets = /tmp/fabric-test/peers\\ninterval = 200ms\\nsizes = 64 1100 4k\\ntos = 0x68\\n' $A2 >\$T/mesh.ini &&
{ \$RDMAD -c \$T/mesh.ini >\$T/mesh.log 2>&1 & p=\$!
for ((k = 0; k < 120; k++)); do
	n=\$(curl -sf http://127.0.0.1:9470/metrics | prom_sum - rdmad_mesh_rounds_total 'result=\"ok\"')
	[ \"\${n:-0}\" -ge 12 ] && break
	sleep 0.5
done
kill -TERM \$p; wait \$p; } &&
grep -q 'mesh: $A1:7471 up' \$T/mesh.log || { cat \$T/mesh.log; exit 1; }"
want tos-agent "rdmad's mesh agent, [mesh] tos = 0x68" 0x68
