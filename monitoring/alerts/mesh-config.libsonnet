// A mesh with a hole: a host that probes nobody, or that nobody probes.
local u = import '../lib/util.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local by = function(l) u.by(c, l),
    groups+: [{
      name: 'rdmad-mesh-config',
      rules: [
        {
          alert: 'RdmadMeshNoPeers',
          expr: |||
            (
              max by (%(i)s) (%(peers)s) == 0
              or
              max by (%(i)s) (%(up)s) == 1 unless on (%(i)s) %(pu)s
            )
            and on (%(f)s) count by (%(f)s) (%(pu)s) > 0
          ||| % { i: by(['instance']), f: by([]), peers: u.sel(c, 'rdmad_mesh_peers'),
                  up: u.sel(c, 'up'), pu: u.sel(c, 'rdmad_mesh_peer_up') },
          'for': c.forLong,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'An rdmad probes no peer, while others do.',
            description: |||
              rdmad on {{ $labels.instance }} has no mesh peer while the other rdmads of the fabric probe theirs: `[mesh] targets` is unset there or its file is empty or names only this host. `rdmadctl mesh` on it, and compare its targets file with the others'.
            |||,
            runbook_url: u.runbook(c, 'rdmadmeshnopeers-rdmadmeshnotprobed'),
          },
        },
      ],
    }, {
      // Across the fabric: on the global Prometheus when sharded
      // (globalAlertGroups), from the shards' counts by address.
      name: 'rdmad-mesh-coverage',
      rules: [
        {
          alert: 'RdmadMeshNotProbed',
          expr: 'max by (%s) (instance:rdmad_mesh_unplaced_self:info)\nunless on (%s) sum by (%s) (peer:rdmad_mesh_unplaced_probers:count)'
                % [by(['instance', 'peer']), by(['peer']), by(['peer'])],
          'for': c.forLong,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'No rdmad probes a host of the mesh.',
            description: |||
              {{ $labels.instance }} is {{ $labels.peer }} in its own targets file, but no other rdmad probes that address: the other hosts' targets files lack it, or name the host by another address or port. Compare the targets files (`rdmadctl mesh` on a peer).
            |||,
            runbook_url: u.runbook(c, 'rdmadmeshnopeers-rdmadmeshnotprobed'),
          },
        },
      ],
    }],
  },
}
