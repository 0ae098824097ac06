// The prober's own RDMA ports: the local evidence (state, flaps, error
// counters, counters at their ceiling), and a port whose error counters
// climb while its prober's pairs lose rounds (RdmadNicErrors).
local u = import '../lib/util.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    groups+: [{
      name: 'rdmad-ports',
      rules: [
        {
          alert: 'RdmadPortDown',
          expr: '%s == 0' % u.sel(c, 'rdmad_port_up'),
          'for': c.forShort,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'An RDMA port is down.',
            description: |||
              The RDMA port {{ $labels.device }}/{{ $labels.port }} of {{ $labels.instance }} is not active: the cable, the switch port or the NIC. `rdma link show` and `ip link` on the host, then the switch.
            |||,
            runbook_url: u.runbook(c, 'rdmadportdown-rdmadportflapping'),
          },
        },
        {
          alert: 'RdmadPortFlapping',
          expr: 'increase(%s[%s]) > %s' % [u.sel(c, 'rdmad_port_changes_total'), c.portFlapWindow, u.num(c.portFlapChanges)],
          labels: { severity: 'warning' },
          annotations: {
            summary: 'An RDMA port flaps.',
            description: |||
              The RDMA port {{ $labels.device }}/{{ $labels.port }} of {{ $labels.instance }} changed state {{ $value | humanize }} times in %(w)s: a bad cable, optic or switch port. `journalctl -u rdmad -g port` gives the times; check the link's error counters.
            ||| % { w: c.portFlapWindow },
            runbook_url: u.runbook(c, 'rdmadportdown-rdmadportflapping'),
          },
        },
        {
          alert: 'RdmadNicErrors',
          expr: 'instance_device_port:rdmad_port_error_events:rate\nand on (%s) instance_device_port:rdmad_verdict_nic_errors:bool'
                % u.by(c, ['instance', 'device', 'port']),
          'for': c.forShort,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'An RDMA port counts errors while most of its pairs lose rounds.',
            description: |||
              Over %(w)s the error counters of the RDMA port {{ $labels.device }}/{{ $labels.port }} of {{ $labels.instance }} climbed {{ $value | humanize }} a second, and at least %(s)s of its pairs lost %(l)s or more of their rounds while up (pairs explained by another verdict left out), more than %(o)s times the median rdmad's share: this NIC, its cable or its switch port, the part the failing pairs share. Its pairs, both ways, raise no pair alert. Which counters: `rate(rdmad_port_events_total{instance="{{ $labels.instance }}", device="{{ $labels.device }}"}[%(w)s])`, and the mesh log lines on the host (`journalctl -u rdmad -g 'local counters'`).
            ||| % { w: c.windowShort, s: u.num(c.nicErrorsPairShare), l: u.num(c.lossThreshold), o: u.num(c.nicErrorsOutlierFactor) },
            runbook_url: u.runbook(c, 'rdmadnicerrors'),
          },
        },
        {
          alert: 'RdmadPortCounterSaturated',
          expr: '%s == 1' % u.sel(c, 'rdmad_port_events_saturated'),
          'for': c.forShort,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'A legacy counter of an RDMA port is stuck at its ceiling.',
            description: |||
              The legacy counter {{ $labels.counter }} of the RDMA port {{ $labels.device }}/{{ $labels.port }} of {{ $labels.instance }} sits at the ceiling of its width and counts no more: its rate of 0 says nothing. Clear it (`perfquery -R`) to see it move again.
            |||,
            runbook_url: u.runbook(c, 'rdmadportcountersaturated'),
          },
        },
      ],
    }],
  },
}
