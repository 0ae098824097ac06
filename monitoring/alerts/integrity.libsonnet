// Bytes that came back wrong: always critical, at once.
local u = import '../lib/util.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local w = c.windowShort,
    groups+: [{
      name: 'rdmad-integrity',
      rules: [{
        alert: 'RdmadDataMismatch',
        // a mesh round read back other bytes than it wrote (labels source,
        // peer), or a client's WRITE reached this rdmad corrupted (server side)
        expr: |||
          source_peer:rdmad_mesh_rounds_mismatch:increase > 0
          or
          sum by (%s) (increase(%s[%s])) > 0
        ||| % [u.by(c, ['instance']), u.sel(c, 'rdmad_sessions_total', 'result="mismatch"'), w],
        labels: { severity: 'critical' },
        annotations: {
          summary: 'Data read or written over RDMA arrived corrupted.',
          description: |||
            {{ if $labels.peer }}{{ $value | humanize }} mesh rounds from {{ $labels.source }} to {{ $labels.peer }} read back bytes different from those written in the last %(w)s: data corruption on the path or in a host. The journal of {{ $labels.instance }} has the first bad offset (`journalctl -u rdmad -g MISMATCH`).{{ else }}{{ $value | humanize }} client sessions of {{ $labels.instance }} ended `mismatch` in the last %(w)s: the bytes a client wrote differ from the pattern. `journalctl -u rdmad RDMAD_RESULT=mismatch` on it names the clients.{{ end }}
          ||| % { w: w },
          runbook_url: u.runbook(c, 'rdmaddatamismatch'),
        },
      }],
    }],
  },
}
