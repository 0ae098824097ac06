#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# A server host crashes under an rdma-probe --targets run: rdmads on hosts
# 2-4, probed at once from host 1 (-D 20, -t 10); host 4's QEMU is killed
# mid-run.  Hosts 2 and 3 still verify, host 4 is reported failed (exit 6
# or 7), the run's exit status is the worst (host 4's), within 2 x -D
# (READs, then WRITEs) + -t + 30 s: 80 s (hosts 2 and 3 take about 37 s
# after the crash, their -D); the surviving rdmads hold nothing more than
# before.  (Host 4, the
# last: the tests after this one need hosts 1-3 and run while it boots
# again; see fab_leave.)
# shellcheck source=tests/fabric/lib.sh
source "$(dirname "$0")/lib.sh"
fab_require 4
for i in 2 3 4; do
	fab_rdmad_start "$i" 7471 "timeouts.liveness = 2s"
	base[i]=$(fab_res_counts "$i" rdmad)
done
fab_spawn 1 mesh "printf '%s\n' $(fab_addr 2) $(fab_addr 3) $(fab_addr 4) >\$T/targets
\$PROBE -s 64k -D 20 -t 10 --json --targets \$T/targets"
fab_probe_connected 4
sleep 3
t0=$(fab_now)
fab_crash 4
fab_wait 1 mesh 120 >"$T/mesh.json"
rc=$?
took=$(fab_since "$t0")
for i in 2 3 4; do
	r[i]=$(json_get "$T/mesh.json" "[t['exit_code'] for t in d['targets'] if t['host'] == '$(fab_addr "$i")'][0]")
done
fab_log "after host 4 crashed: exit $rc in ${took}s; per target: 2 -> ${r[2]}, 3 -> ${r[3]}, 4 -> ${r[4]}"
fab_log "host 4: $(json_get "$T/mesh.json" "[t['error'] for t in d['targets'] if t['host'] == '$(fab_addr 4)'][0]")"
[ "${r[2]}" = 0 ] && [ "${r[3]}" = 0 ] || fab_fail "the surviving hosts did not verify"
[ "${r[4]}" = 6 ] || [ "${r[4]}" = 7 ] || fab_fail "host 4's exit ${r[4]}, want 6 or 7"
[ "$rc" = "${r[4]}" ] || fab_fail "run exit $rc, want the worst target's ${r[4]}"
awk -v t="$took" 'BEGIN { exit !(t <= 80) }' || fab_fail "the run took ${took}s after the crash (2 x -D 20 + -t 10 + 30 s: 80 s)"
for i in 2 3; do fab_counts_back "$i" "${base[i]}"; done
fab_log "rdmads on hosts 2 and 3 back to their baselines"
