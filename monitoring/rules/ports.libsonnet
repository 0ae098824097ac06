// Recording rules of the prober's own RDMA ports: the rate of their error
// counters (rdmad_port_counter_total, docs/monitoring.md "Port counters").
//   instance_device_port: one port of one rdmad
local u = import '../lib/util.libsonnet';

{
  prometheusRules+:: {
    local c = $._config,
    groups+: [{
      name: 'rdmad-ports.rules',
      rules: [
        {
          // errors a second on the port, all error counters together
          record: 'instance_device_port:rdmad_port_counter_errors:rate',
          expr: 'sum by (%s) (rate(%s[%s]))'
                % [u.by(c, ['instance', 'device', 'port']),
                   u.sel(c, 'rdmad_port_counter_total', 'counter=~"%s"' % c.portErrorCounters),
                   c.windowShort],
        },
      ],
    }],
  },
}
