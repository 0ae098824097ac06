// The Alertmanager's inhibition rules (monitoring/generated/rdmad-inhibit.yaml,
// to paste under a config's inhibit_rules): while a verdict that names a
// part fires, the pair alerts that part explains are held back, at once,
// instead of each pair alert waiting for the verdicts (the alerts on what
// the agents decided, alerts/health.libsonnet, carry the pair's place for
// this).  A target must carry every `equal` label with the same value:
// a pair alert without a place (no inventory) is never held back.
{
  alertmanagerInhibitRules+:: {
    local c = $._config,
    local pairs = 'RdmadPair(Retransmitting|Slow|Flapping)',
    local rule = function(sources, equal) {
      source_matchers: ['alertname=~"%s"' % sources],
      target_matchers: ['alertname=~"%s"' % pairs],
      equal: c.fabricLabels + equal,
    },
    inhibit_rules+: if !c.decidedAlerts then [] else [
      // every pair into the host, or into its NIC on that rail
      rule('RdmadHostDown', ['peer_host']),
      rule('RdmadNicDown', ['peer_host', 'rail']),
      // every pair into a ToR that is down, cut off, or loses on its
      // uplinks (or one of its ECMP links)
      rule('RdmadTorDown|RdmadTorUplinkDown|RdmadTorUplinkLoss|RdmadFabricLinkLoss|RdmadTorUplink(Slow|Retransmitting|Flapping|Congested)', ['peer_tor']),
      // the gray verdicts (and congestion): every pair into the NIC it names
      rule('RdmadNic(Slow|Retransmitting|Flapping|Congested)', ['peer_host', 'rail']),
      // every pair of a prober that fails on its own
      rule('RdmadProberFailing', ['instance']),
    ],
  },
}
