// The prober's own RDMA ports: the local evidence (state, flaps, error
// counters, counters at their ceiling).
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
            summary: 'RDMA port {{ $labels.device }}/{{ $labels.port }} of {{ $labels.instance }} is down.',
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
            summary: 'RDMA port {{ $labels.device }}/{{ $labels.port }} of {{ $labels.instance }} flaps.',
            description: |||
              The RDMA port {{ $labels.device }}/{{ $labels.port }} of {{ $labels.instance }} changed state {{ $value | humanize }} times in %(w)s: a bad cable, optic or switch port. `journalctl -u rdmad -g port` gives the times; check the link's error counters.
            ||| % { w: c.portFlapWindow },
            runbook_url: u.runbook(c, 'rdmadportdown-rdmadportflapping'),
          },
        },
        {
          alert: 'RdmadPortCounterSaturated',
          expr: '%s == 1' % u.sel(c, 'rdmad_port_counter_saturated'),
          'for': c.forShort,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Counter {{ $labels.counter }} of RDMA port {{ $labels.device }}/{{ $labels.port }} of {{ $labels.instance }} is stuck at its ceiling.',
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
