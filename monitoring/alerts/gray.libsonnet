// The gray verdicts (rules/gray.libsonnet): a part named from what the
// agents decided of the pairs that cross it, slow, lossy or flapping, one
// alert per part (the pair alerts of alerts/health.libsonnet it explains
// are inhibited: alerts/inhibit.libsonnet).  With decidedAlerts only.
local u = import '../lib/util.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local by = function(l) u.by(c, l),
    // the share of the part's pairs decided so, 0 while none is: a lossy
    // part's verdict can come from its probers' place pools first
    // (rules/gray.libsonnet)
    local share = function(st, keys, sel) |||
      (
        sum by (%(k)s) (peer_host_rail:rdmad_mesh_pairs_decided_%(st)s:count%(sel)s)
        / sum by (%(k)s) (peer_host_rail:rdmad_mesh_pairs:count%(sel)s)
      or
        sum by (%(k)s) (peer_host_rail:rdmad_mesh_pairs:count%(sel)s) * 0
      )
    ||| % { k: by(keys), st: st, sel: if sel == '' then '' else '{' + sel + '}' },
    local nic = function(st) '%s and on (%s) peer_host_rail:rdmad_verdict_nic_%s:bool'
                             % [share(st, ['peer_host', 'peer_tor', 'rail'], ''), by(['peer_host', 'rail']), st],
    local uplink = function(st) '%s and on (%s) tor:rdmad_verdict_uplink_%s:bool'
                                % [share(st, ['peer_tor'], 'why="cross-ToR"'), by(['peer_tor']), st],
    // the part's congestion counters moving (rules/gray.libsonnet): slow or
    // lossy pairs into it are congestion, not a failure
    local nicCongested = 'peer_host:rdmad_port_congested:bool',
    local torCongested = 'tor:rdmad_port_congested:bool',
    local unlessNic = function(e) '%s\nunless on (%s) %s' % [e, by(['peer_host']), nicCongested],
    local unlessTor = function(e) '%s\nunless on (%s) %s' % [e, by(['peer_tor']), torCongested],
    local slowOrLossy = function(f) '(\n  %s\n  or\n  %s\n)' % [f('slow'), f('lossy')],
    local alert = function(name, expr, summary, description) {
      alert: name,
      expr: u.sourceCopy(name, expr),
      'for': c.decidedFor,
      labels: { severity: 'warning' },
      annotations: {
        summary: summary,
        description: description,
        runbook_url: u.runbook(c, std.asciiLower(name)),
      },
    },
    local decidedBy = 'decided by their probers\' agents (their sequential tests, docs/mesh.md)',

    groups+: if !c.decidedAlerts then [] else [{
      name: 'rdmad-gray',
      rules: [
        alert('RdmadNicSlow', unlessNic(nic('slow')),
              'The NIC of a host on a rail lost bandwidth: the pairs into it are slow.',
              |||
                {{ $value | humanizePercentage }} of the pairs into {{ $labels.peer_host }} on rail {{ $labels.rail }} are slow, %(d)s, from at least %(m)s probers, those under its own ToR too: its bandwidth samples fell [mesh] slow_drop or more below their usual. Fail-slow at that end: a link trained down to a lower speed, a degraded optic or cable, the NIC throttled (its temperature, its PCIe link). On the host: `ethtool` (speed), `rdma link show`, `lspci -vv` (LnkSta), then the switch port.
              ||| % { d: decidedBy, m: u.num(c.minProbers) }),
        alert('RdmadNicRetransmitting', unlessNic(nic('lossy')),
              'The port of a host on a rail loses packets: the pairs into it retransmit.',
              |||
                {{ $value | humanizePercentage }} of the pairs into {{ $labels.peer_host }} on rail {{ $labels.rail }} are lossy, %(d)s, from at least %(m)s probers, those under its own ToR too; or, often sooner (the value still below 50 %%), its own agent decided lossy every place pool of its own on that rail (`rdmad_mesh_rail_place_health`: all its peers there, under its ToR and beyond, their rounds together). Their rounds verify late (an RC retransmission) or fail more often than [mesh] healthy_bad, or than the pool's usual. Light loss at that end, which RC hides from the applications as latency: its cable or optic, the NIC, or the ToR's port toward it. Check `rdmad_port_events_total` there (retransmission and sequence-error counters), the switch port's error counters, then reseat or swap the cable.
              ||| % { d: decidedBy, m: u.num(c.minProbers) }),
        alert('RdmadNicCongested', '%s\nand on (%s) %s' % [slowOrLossy(nic), by(['peer_host']), nicCongested],
              'The pairs into a host on a rail are slow or lossy, and the host counts congestion: congestion, not a failing part.',
              |||
                {{ $value | humanizePercentage }} of the pairs into {{ $labels.peer_host }} on rail {{ $labels.rail }} are slow or lossy, %(d)s, from at least %(m)s probers, and its NICs count more than %(r)s ECN marks or congestion notifications a second (`portCongestionCounters`, over %(w)s): the traffic toward it meets queues, which mark it, and the senders slow down (DCQCN). Not a failing cable or NIC: RdmadNicSlow and RdmadNicRetransmitting hold back while it lasts. Which flows: `rate(rdmad_port_events_total{counter=~"np_ecn_marked_roce_packets|np_cnp_sent|rp_cnp_handled"}[%(w)s])` on the host, the switch's queue and ECN counters toward it (an incast, a hot receiver), the traffic class and its buffer. If it lasts with no load to explain it, check PFC and ECN settings (a pause storm, a marking threshold too low).
              ||| % { d: decidedBy, m: u.num(c.minProbers), r: u.num(c.congestionRate), w: c.windowShort }),
        alert('RdmadNicFlapping', nic('flapping'),
              'The link of a host on a rail goes down and up again and again.',
              |||
                {{ $value | humanizePercentage }} of the pairs into {{ $labels.peer_host }} on rail {{ $labels.rail }} are flapping, %(d)s, from at least %(m)s probers: [mesh] flap_downs downs or more within flap_window on each. One alert for the part, not a down and an up of each pair. Its cable, optic or switch port bouncing: `rdmad_port_events_total` and RdmadPortFlapping on the host, the switch port's log, `journalctl -u rdmad -g 'mesh: .*(down|up|flapping)'` on a prober dates each down.
              ||| % { d: decidedBy, m: u.num(c.minProbers) }),
        alert('RdmadTorUplinkSlow', unlessTor(uplink('slow')),
              'The uplinks of a ToR switch lost bandwidth: its cross-ToR pairs are slow, those inside it not.',
              |||
                {{ $value | humanizePercentage }} of the cross-ToR pairs into {{ $labels.peer_tor }} are slow, and its own probers' pairs to other ToRs too, %(d)s, while the pairs inside it keep their bandwidth: its uplinks carry less than they did (a member of a LAG or of the ECMP set down, a link trained down, congestion that lasts). Check the uplink ports' speed and state, the spine side, then the traffic on them.
              ||| % { d: decidedBy }),
        alert('RdmadTorUplinkRetransmitting', unlessTor(uplink('lossy')),
              'The uplinks of a ToR switch lose packets: its cross-ToR pairs retransmit, those inside it not.',
              |||
                {{ $value | humanizePercentage }} of the cross-ToR pairs into {{ $labels.peer_tor }} are lossy, and its own probers' pairs to other ToRs too, %(d)s, while the pairs inside it are clean; or, often sooner (the value still below 50 %%), more than half of its own probers' cross-ToR place pools are lossy (`rdmad_mesh_rail_place_health`, from %(m)s hosts at least) while their same-ToR pools are not. Light loss on its uplinks, which RC hides as latency (RdmadTorUplinkLoss is the heavy kind, from failed rounds). Check the uplink ports' error and discard counters (CRC errors: a dirty optic or cable; discards: congestion), then the spine side.
              ||| % { d: decidedBy, m: u.num(c.minProbers) }),
        alert('RdmadTorUplinkCongested', '%s\nand on (%s) %s' % [slowOrLossy(uplink), by(['peer_tor']), torCongested],
              'The cross-ToR pairs of a ToR switch are slow or lossy, and its hosts count congestion: its uplinks are congested, not failing.',
              |||
                {{ $value | humanizePercentage }} of the cross-ToR pairs into {{ $labels.peer_tor }} are slow or lossy, and its own probers' pairs to other ToRs too, %(d)s, while the pairs inside it are fine, and at least %(h)s of its hosts count more than %(r)s ECN marks or congestion notifications a second (`portCongestionCounters`, over %(w)s): its uplinks carry more than they can, and mark it. Not a failing link: RdmadTorUplinkSlow and RdmadTorUplinkRetransmitting hold back while it lasts. Check the uplinks' utilisation and ECN/queue counters on the ToR and the spines, the ECMP balance (one uplink hot while others idle: a hashing imbalance), then the jobs' traffic.
              ||| % { d: decidedBy, h: u.num(c.congestionMinHosts), r: u.num(c.congestionRate), w: c.windowShort }),
        alert('RdmadTorUplinkFlapping', uplink('flapping'),
              'The uplinks of a ToR switch go down and up again and again.',
              |||
                {{ $value | humanizePercentage }} of the cross-ToR pairs into {{ $labels.peer_tor }} are flapping, and its own probers' pairs to other ToRs too, %(d)s, while the pairs inside it are steady: its uplinks (or the routing toward it) come and go. One alert for the ToR. Check the uplink ports' and the routing sessions' logs on the ToR and the spines.
              ||| % { d: decidedBy }),
        alert('RdmadFabricLinkRetransmitting',
              unlessTor(|||
                sum by (%(t)s) (
                  tor_pair_host:rdmad_mesh_pairs_split:count{why="cross-ToR"}
                  or label_replace(tor_pair_host:rdmad_mesh_pairs_split:count{why="cross-ToR"}, "peer_tor", "$1", "source_tor", "(.*)")
                )
                and on (%(t)s) tor:rdmad_verdict_link_lossy:bool
              ||| % { t: by(['peer_tor']) }),
              'One of the ECMP links of a ToR switch loses packets: only the paths hashed onto it retransmit.',
              |||
                {{ $value }} cross-ToR pairs into or out of {{ $labels.peer_tor }}, from at least %(m)s probers and with other ToRs, are split: some of their paths (each its own QP, so its own UDP source port and ECMP hash) decided lossy while a sibling path of the same pair stays clean (`rdmad_mesh_peer_paths_split`, docs/mesh.md "Which paths see it"), more than %(f)s times as often as the fleet's pairs inside a ToR, and no uplink or NIC verdict explains it. Light loss on one of the links between {{ $labels.peer_tor }} and the spines (or on the way), which RC hides as latency: not the hosts' ports, not all of its uplinks. `tor_pair_host:rdmad_mesh_pairs_split:count` lists the pairs; `/peers` on a prober shows which paths. Check the error and discard counters of the ToR's uplink ports and of the spine ports toward it (a link up but dropping, a dirty optic).
              ||| % { m: u.num(c.minProbers), f: u.num(c.grayOutlierFactor) }),
      ],
    }],
  },
}
