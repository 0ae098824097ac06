// The verdicts (rules/verdict.libsonnet): one alert per kind of broken
// part, named by its labels (peer_tor, peer_host, rail, source_host; a
// host's, a NIC's or a ToR's part is named as a prober's end too, its
// source_host or source_tor, for the inhibition rules: u.sourceCopy).  The
// pairs a verdict explains raise no pair or host alert
// (source_peer:rdmad_mesh_pair_explained:bool), and the Alertmanager holds
// back those that fire before it (alerts/inhibit.libsonnet).  They need an inventory
// with topology (docs/fleet.md): without one, none of them can fire.
local u = import '../lib/util.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local by = function(l) u.by(c, l),
    local vw = c.verdictWindow,
    local alert = function(name, severity, expr, summary, description) {
      alert: name,
      expr: u.sourceCopy(name, expr),
      'for': if name == 'RdmadFabricLinkLoss' then c.linkVerdictFor else c.verdictFor,
      labels: { severity: severity },
      annotations: {
        summary: summary,
        description: description,
        runbook_url: u.runbook(c, std.asciiLower(name)),
      },
    },

    groups+: [{
      name: 'rdmad-verdicts',
      rules: [
        alert('RdmadTorDown', 'critical',
              'tor:rdmad_mesh_hosts_bad:count and on (%s) tor:rdmad_verdict_down:bool' % by(['peer_tor']),
              'A ToR switch is down: its hosts are unreachable, inside the ToR too.',
              |||
                {{ $value }} hosts under ToR {{ $labels.peer_tor }} answer on no rail, and the pairs inside the ToR fail as well: the switch (or its power, or a change on it), not the hosts. The pairs and hosts it explains raise no other alert. Check the switch first (its management interface, its ports' state in `rdma link show` on one of its hosts: DOWN everywhere), then whether a change went to it.
              |||),
        alert('RdmadTorUplinkDown', 'critical',
              'tor:rdmad_mesh_pairs_bad:cross_ratio and on (%s) tor:rdmad_verdict_uplink_down:bool' % by(['peer_tor']),
              'A ToR switch is cut off from the fabric: the pairs across its uplinks fail, those inside it work.',
              |||
                Over %(w)s, {{ $value | humanizePercentage }} of the probed pairs from hosts under other ToRs into {{ $labels.peer_tor }} failed, and so did its own hosts' pairs to other ToRs, while its hosts still reach each other: its uplinks (the ToR's ports toward the spine, or the spine side), not the hosts. With two ToRs only, both name the same link. Check the ToR's uplink ports and their counters, the routing or LAG state toward the spine, then the spine switches.
              ||| % { w: vw }),
        alert('RdmadTorUnreachable', 'critical',
              'tor:rdmad_mesh_pairs_bad:cross_ratio and on (%s) tor:rdmad_verdict_unreachable:bool' % by(['peer_tor']),
              'No other ToR reaches a ToR switch\'s hosts, while they reach out and each other.',
              |||
                Over %(w)s, {{ $value | humanizePercentage }} of the probed pairs from hosts under other ToRs into {{ $labels.peer_tor }} failed, while its hosts still reach each other and its own probers' pairs to other ToRs do not fail as much: traffic into the ToR from the fabric is lost, one way (a route toward its prefix missing on the spines, an ACL, a spine-side port), not its hosts. Its hosts' unreachable alerts are this one. Check the routes toward the ToR's subnets on the spines, recent ACL or policy changes, then the spine-side ports of its uplinks.
              ||| % { w: vw }),
        alert('RdmadTorUplinkLoss', 'warning',
              'tor:rdmad_mesh_pairs_lossy:cross_ratio and on (%s) tor:rdmad_verdict_uplink_loss:bool' % by(['peer_tor']),
              'Loss on the uplinks of a ToR switch: its cross-ToR pairs lose rounds, those inside it do not.',
              |||
                Over %(w)s, {{ $value | humanizePercentage }} of the cross-ToR pairs into {{ $labels.peer_tor }} lost at least %(l)s of their rounds, and its own hosts' pairs to other ToRs too, while the pairs inside the ToR stayed clean: loss on its uplinks. Check the uplink ports' error and discard counters (CRC errors: a dirty optic or cable; discards: congestion, PFC/ECN), then the spine side.
              ||| % { w: vw, l: u.num(c.lossThreshold) }),
        alert('RdmadHostDown', 'critical',
              'peer_host:rdmad_mesh_pairs_bad:min_rail_ratio and on (%s) peer_host:rdmad_verdict_down:bool' % by(['peer_host']),
              'A host is unreachable on every rail.',
              |||
                On its best rail, {{ $value | humanizePercentage }} of the probers of {{ $labels.peer_host }} fail to reach it, those under its own ToR too: the host, its rdmad, or all its links, not the network. Check the host first (is it up, `systemctl status rdmad`, `rdma link show` on it), then `journalctl -u rdmad` there.
              |||),
        alert('RdmadNicDown', 'critical',
              'peer_host_rail:rdmad_mesh_pairs_bad:ratio and on (%s) peer_host_rail:rdmad_verdict_nic_down:bool' % by(['peer_host', 'rail']),
              'A NIC of a host is unreachable; the host\'s other rails work.',
              |||
                {{ $value | humanizePercentage }} of the probers of {{ $labels.peer_host }} on rail {{ $labels.rail }} fail, while another rail of the same host is reached: that NIC, its cable or its switch port, not the host. {{ with printf "group by (peer) (source_peer:rdmad_mesh_place:info{peer_host=%q, rail=%q})" $labels.peer_host $labels.rail | query }}The NIC's address (the inventory's, on rail {{ $labels.rail }}): {{ range . }}{{ .Labels.peer }} {{ end }}. {{ end }}On the host: `rdma link show` (the port of that rail), `rdmad_port_up`, the NIC's counters (`hw_counters`), the cable; then the rail switch's port.
              |||),
        alert('RdmadProberFailing', 'warning',
              'source:rdmad_mesh_pairs_bad:min_rail_ratio and on (%s) source:rdmad_verdict_prober:bool' % by(['instance']),
              'A prober fails to most of its peers on every rail, which the others reach.',
              |||
                {{ $labels.source_host }} ({{ $labels.instance }}) fails most of its rounds while the other probers reach the same peers and reach {{ $labels.source_host }}: a problem of that prober, not of the network (its rdmad's configuration or key, its memory lock limit, a starved CPU). Its pairs raise no pair alerts. On it: `rdmadctl mesh` (the error of each peer), `journalctl -u rdmad -g 'mesh: '`, its load.
              |||),
        alert('RdmadFabricLinkLoss', 'warning',
              'tor:rdmad_mesh_tor_pairs_unexplained:count and on (%s) tor:rdmad_verdict_link:bool' % by(['peer_tor']),
              'A link between a ToR switch and the spines drops traffic that no host, NIC, ToR or prober explains.',
              |||
                Over %(w)s, lossy cross-ToR pairs to or from {{ $labels.peer_tor }} show in {{ $value }} ToR pairs (at least %(n)s), while its other cross-ToR pairs and the pairs inside every ToR are clean and no host, NIC or ToR verdict explains them: one of the links between {{ $labels.peer_tor }} and the spines, under ECMP (only the flows hashed onto it fail). `source_peer:rdmad_mesh_pair_lossy:bool{why="cross-ToR"} == 1` lists the pairs; with `[mesh] paths` > 1, `rdmad_mesh_path_rounds_failed_total` shows that only some paths of each pair fail. Check the ToR's uplink ports and the spines' ports toward it: errors, discards, a link up but dropping.
              ||| % { w: vw, n: u.num(c.fabricLinkMinTorPairs) }),
      ],
    }],
  },
}
