// What each rdmad decided of its peers (docs/mesh.md, "Decided in the
// agent"): rdmad_mesh_peer_health, rdmad_mesh_peer_flaps, read as they are
// scraped, without a rate window (the agent's sequential tests already
// waited for their evidence).  Each alert carries both ends' places when
// the inventory has them (peer_host, peer_tor, rail, why, source_host,
// source_tor: u.withPlaces), so that the
// Alertmanager's inhibition rules (monitoring/generated/rdmad-inhibit.yaml)
// silence it while a verdict that explains it fires (the pairs into the
// part and those out of it: alerts/inhibit.libsonnet).
local u = import '../lib/util.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local by = function(l) u.by(c, l),
    local health = 'max by (%s) (%s)' % [by(['instance', 'peer']), u.sel(c, 'rdmad_mesh_peer_health')],
    // the prober's address as source, the pair's place where there is one
    local labelled = function(e) u.withPlaces(c, '(%s) * on (%s) group_left (source) instance:rdmad_mesh_source:info'
                                                 % [e, by(['instance'])]),
    local alert = function(name, expr, summary, description) {
      alert: name,
      expr: labelled(expr),
      'for': c.decidedFor,
      labels: { severity: 'warning' },
      annotations: {
        summary: summary,
        description: description,
        runbook_url: u.runbook(c, std.asciiLower(name)),
      },
    },

    groups+: if !c.decidedAlerts then [] else [{
      name: 'rdmad-health',
      rules: [
        alert('RdmadPairFlapping',
              'max by (%s) (%s)\nand on (%s) %s == 5'
              % [by(['instance', 'peer']), u.sel(c, 'rdmad_mesh_peer_flaps'), by(['instance', 'peer']), health],
              'A pair goes down and up again and again.',
              |||
                The path from {{ $labels.source }} to {{ $labels.peer }} went down {{ $value }} times within [mesh] flap_window on that prober: one alert for the whole episode, not a down and an up each time. A link that comes and goes: the cable or optic of one end, or a switch port bouncing (`rdmad_port_events_total`, RdmadPortFlapping on either host). `journalctl -u rdmad -g 'mesh: .*(down|up|flapping)'` on the prober dates each down.
              |||),
        alert('RdmadPairRetransmitting',
              '%s == 3' % health,
              'The rounds of a pair are late or fail: loss that RC hides.',
              |||
                The agent on {{ $labels.source }} finds the rounds to {{ $labels.peer }} lossy: more of them than [mesh] healthy_bad verified later than slow_round above the pair's usual latency (an RC retransmission: a packet lost and sent again) or failed, persistently (its sequential test, docs/mesh.md). The pair stays up, so the rate-based RdmadPairLoss may never fire. Light loss on the path: check the ports and links of both ends (`rdmad_port_events_total`: retransmission and sequence-error counters), then the switch ports on the path. If a host, NIC, ToR or uplink verdict fires, this alert is inhibited.
              |||),
        alert('RdmadPairSlow',
              '%s == 2' % health,
              'The bandwidth of a pair fell well below its usual.',
              |||
                The agent on {{ $labels.source }} finds the bandwidth samples to {{ $labels.peer }} fallen [mesh] slow_drop or more below the pair's usual (a sequential test on its samples, docs/mesh.md): fail-slow, a link or NIC that lost speed (a link trained down, a degraded optic), or lasting congestion on the path. Compare its other peers on the same rail (one pair, or all of the prober's: its own NIC), `rdma link` and `ethtool` on both ends.
              |||),
      ],
    }],
  },
}
