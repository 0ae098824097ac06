// Recording rules of the prober's own RDMA ports: the rate of their error
// counters (rdmad_port_events_total, docs/monitoring.md "Port counters"),
// and the NIC-errors verdict: a port whose error counters climb while most
// of its prober's pairs lose rounds that no other verdict explains.
//   instance_device_port: one port of one rdmad
//   instance:             one rdmad (all its ports, all its pairs)
//   peer:                 one rdmad named by its mesh address, as its
//                         probers call it (instance:rdmad_mesh_source:info)
local u = import '../lib/util.libsonnet';

{
  prometheusRules+:: {
    local c = $._config,
    groups+: [{
      name: 'rdmad-ports.rules',
      rules: [
        {
          // errors a second on the port, all error counters together
          record: 'instance_device_port:rdmad_port_error_events:rate',
          expr: 'sum by (%s) (rate(%s[%s]))'
                % [u.by(c, ['instance', 'device', 'port']),
                   u.sel(c, 'rdmad_port_events_total', 'counter=~"%s"' % c.portErrorCounters),
                   c.windowShort],
        },
        {
          // the share of the prober's pairs that lose at least lossThreshold
          // of their rounds and are up now, pairs a verdict explains left
          // out (counted as clean: a ToR, uplink or host verdict is not this
          // NIC; a pair down is the reachability alerts')
          record: 'instance:rdmad_mesh_pairs_lossy_unexplained:ratio',
          expr: |||
            (
              sum by (%(i)s) (
                (source_peer:rdmad_mesh_rounds_failed:ratio >= bool %(l)s)
                unless on (%(ip)s) source_peer:rdmad_mesh_pair_explained:bool
                unless on (%(ip)s) source_peer:rdmad_mesh_peer_up:max == 0
              )
              or count by (%(i)s) (source_peer:rdmad_mesh_rounds_failed:ratio) * 0
            )
            /
            count by (%(i)s) (source_peer:rdmad_mesh_rounds_failed:ratio)
          ||| % { i: u.by(c, ['instance']), ip: u.by(c, ['instance', 'peer']), l: u.num(c.lossThreshold) },
        },
      ],
    }, {
      // The NIC-errors verdict: a series only while it holds (1), so a
      // group of its own (a healthy fabric has none; the fabric suite's
      // t-96 wants every other record to have series).
      name: 'rdmad-nic-verdict.rules',
      rules: [
        {
          // 1: the port counts more than nicErrorRate errors a second, at
          // least nicErrorsPairShare of its prober's pairs are lossy, and
          // that share is more than nicErrorsOutlierFactor times the median
          // share of the rdmads: the failing pairs share this host, not a
          // part that many hosts sit behind (an uplink losing packets)
          record: 'instance_device_port:rdmad_verdict_nic_errors:bool',
          expr: |||
            (
              instance_device_port:rdmad_port_error_events:rate > %(r)s
              and on (%(i)s) instance:rdmad_mesh_pairs_lossy_unexplained:ratio >= %(s)s
              and on (%(i)s) (
                instance:rdmad_mesh_pairs_lossy_unexplained:ratio
                > on (%(f)s) group_left ()
                %(o)s * quantile by (%(f)s) (0.5, instance:rdmad_mesh_pairs_lossy_unexplained:ratio)
              )
            ) * 0 + 1
          ||| % { i: u.by(c, ['instance']), f: u.by(c), r: u.num(c.nicErrorRate), s: u.num(c.nicErrorsPairShare),
                  o: u.num(c.nicErrorsOutlierFactor) },
        },
        {
          record: 'instance:rdmad_verdict_nic_errors:bool',
          expr: 'max by (%s) (instance_device_port:rdmad_verdict_nic_errors:bool)' % u.by(c, ['instance']),
        },
        {
          // the same, by the address its probers give it: their pairs to it
          // are explained too (only where this Prometheus scrapes both)
          record: 'peer:rdmad_verdict_nic_errors:bool',
          expr: |||
            max by (%(p)s) (label_replace(
              instance:rdmad_verdict_nic_errors:bool
              * on (%(i)s) group_left (source) instance:rdmad_mesh_source:info,
              "peer", "$1", "source", "(.*)"))
          ||| % { i: u.by(c, ['instance']), p: u.by(c, ['peer']) },
        },
      ],
    }],
  },
}
