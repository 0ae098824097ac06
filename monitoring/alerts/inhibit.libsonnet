// The Alertmanager's inhibition rules (monitoring/generated/rdmad-inhibit.yaml,
// to paste under a config's inhibit_rules): while a verdict that names a
// part fires, the pair alerts that part explains are held back, at once,
// instead of each pair alert waiting for the verdicts (RdmadPairUnreachable
// waits pairFor, not until a verdict could have come back from the global
// Prometheus; with decidedAlerts, the alerts on what the agents decided,
// alerts/health.libsonnet, wait nothing).  Every pair alert
// carries the places of both ends (u.withPlaces), every verdict its part
// under the prober's name too (u.sourceCopy): a rule holds back the pairs
// into the part (peer_host, peer_tor) and those out of it (source_host,
// source_tor).  A target must carry every `equal` label with the same
// value: a pair alert without a place (no inventory) is never held back.
{
  alertmanagerInhibitRules+:: {
    local c = $._config,
    local pairs = if c.decidedAlerts then 'RdmadPair(Unreachable|Loss|Retransmitting|Slow|Flapping)'
    else 'RdmadPair(Unreachable|Loss)',
    local rule = function(sources, equal) {
      source_matchers: ['alertname=~"%s"' % sources],
      target_matchers: ['alertname=~"%s"' % pairs],
      equal: c.fabricLabels + equal,
    },
    // a part's verdict holds back the pairs into it and out of it
    local both = function(sources, into, out) [rule(sources, into), rule(sources, out)],
    local gray = function(s) if c.decidedAlerts then '|' + s else '',
    inhibit_rules+:
      // every pair into or out of the host, or its NIC on that rail
      both('RdmadHostDown', ['peer_host'], ['source_host'])
      + both('RdmadNicDown' + gray('RdmadNic(Slow|Retransmitting|Flapping|Congested)'),
             ['peer_host', 'rail'], ['source_host', 'rail'])
      // every pair into or out of a ToR that is down, cut off, or loses on
      // its uplinks (or one of its ECMP links)
      + both('RdmadTorDown|RdmadTorUplinkDown|RdmadTorUplinkLoss|RdmadFabricLinkLoss'
             + gray('RdmadTorUplink(Slow|Retransmitting|Flapping|Congested)|RdmadFabricLinkRetransmitting'),
             ['peer_tor'], ['source_tor'])
      // every pair into a ToR no other ToR reaches (one way: its pairs
      // out are not explained)
      + [rule('RdmadTorUnreachable', ['peer_tor'])]
      // every pair of a prober that fails on its own
      + [rule('RdmadProberFailing', ['instance'])],
  },
}
