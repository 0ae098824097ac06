// What each rdmad decided of its peers (docs/mesh.md, "Decided in the
// agent"): rdmad_mesh_peer_health, rdmad_mesh_peer_flaps, read as they are
// scraped, without a rate window (the agent's sequential tests already
// waited for their evidence).  Each alert carries the pair's place when the
// inventory has one (peer_host, peer_tor, rail, why), so that the
// Alertmanager's inhibition rules (monitoring/generated/rdmad-inhibit.yaml)
// silence it while a verdict that explains it fires; a pair out of a NIC
// that a verdict names is left out here (ownNic below).
local u = import '../lib/util.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local by = function(l) u.by(c, l),
    local health = 'max by (%s) (%s)' % [by(['instance', 'peer']), u.sel(c, 'rdmad_mesh_peer_health')],
    // the prober's address as source, the pair's place where there is one
    local labelled = function(e) |||
      (
        (%(e)s) * on (%(i)s) group_left (source) instance:rdmad_mesh_source:info
      ) * on (%(p)s) group_left (peer_host, peer_tor, rail, why) source_peer:rdmad_mesh_place:info
      or on (%(p)s)
      (%(e)s) * on (%(i)s) group_left (source) instance:rdmad_mesh_source:info
    ||| % { e: e, i: by(['instance']), p: by(['instance', 'peer']) },
    // the prober's own NIC on the pair's rail named by a verdict (down,
    // or a gray one): its pairs out are explained as much as those into
    // it, which the Alertmanager inhibits; these it cannot (its rules match
    // a label against the same label, never peer_host against the
    // prober's host), so they are left out here
    local ownNic = |||
      max by (%(ir)s) (
        instance:rdmad_mesh_place:info
        * on (%(h)s) group_right (instance)
        label_replace(max by (%(hr)s) (%(nics)s), "source_host", "$1", "peer_host", "(.*)")
      )
    ||| % { ir: by(['instance', 'rail']), h: by(['source_host']),
            hr: by(['peer_host', 'rail']),
            nics: std.join(' or ', ['peer_host_rail:rdmad_verdict_nic_%s:bool' % st for st in ['down', 'slow', 'lossy', 'flapping']]) },
    local alert = function(name, expr, summary, description) {
      alert: name,
      expr: '(\n%s)\nunless on (%s)\n%s' % [labelled(expr), by(['instance', 'rail']), ownNic],
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
