// Who cannot reach whom: a host nobody reaches versus a single pair (a path).
local u = import '../lib/util.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local by = function(l) u.by(c, l),
    // the host is unreachable: enough of its probers see it down
    local hostDown = '(peer:rdmad_mesh_probers_down:ratio >= %(s)s and peer:rdmad_mesh_probers_down:count >= %(m)s)'
                     % { s: u.num(c.hostUnreachableShare), m: u.num(c.minProbers) },
    // a verdict (alerts/verdicts.libsonnet) names the broken part, at any
    // time in downWindow (the verdicts are faster than these alerts; a
    // longer memory would hide the next fault of the same pair): the
    // address's or the pair's own alert is noise
    local explained = function(l) 'max by (%s) (max_over_time(source_peer:rdmad_mesh_pair_explained:bool[%s]))'
                                  % [by(l), c.downWindow],
    // the prober is isolated: it cannot reach enough of its peers
    local isolated = '(source:rdmad_mesh_peers_down:ratio >= %(s)s and source:rdmad_mesh_peers_down:count >= %(m)s)'
                     % { s: u.num(c.hostUnreachableShare), m: u.num(c.minProbers) },

    groups+: [{
      name: 'rdmad-reachability',
      rules: [
        {
          alert: 'RdmadHostUnreachable',
          expr: hostDown + '\nunless on (%s) %s' % [by(['peer']), explained(['peer'])],
          'for': c.forShort,
          labels: { severity: 'critical' },
          annotations: {
            summary: 'A host is unreachable over RDMA from its probers.',
            description: |||
              {{ $value | humanizePercentage }} of the rdmads that probe {{ $labels.peer }} see it down (at least %(m)s of them): the host, its rdmad or its link, not a path. Check first that rdmad runs there (RdmadDown), then its RDMA port (`rdma link`, rdmad_port_up) and `journalctl -u rdmad` on it.
            ||| % { m: u.num(c.minProbers) },
            runbook_url: u.runbook(c, 'rdmadhostunreachable'),
          },
        },
        {
          alert: 'RdmadPairUnreachable',
          expr: u.withPlaces(c, |||
            source_peer:rdmad_mesh_peer_up:max == 0
            unless on (%s) %s
            unless on (%s) %s
            unless on (%s) %s
          ||| % [by(['peer']), hostDown, by(['instance']), isolated, by(['instance', 'peer']), explained(['instance', 'peer'])]),
          'for': c.pairFor,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'A prober cannot reach a peer over RDMA, though others can.',
            description: |||
              The pair {{ $labels.source }} -> {{ $labels.peer }} is down while most of the target's probers reach it and the prober reaches most of its peers: a path (a switch port, an ECMP hash, an ACL), not a host. `rdmadctl mesh` on {{ $labels.source }} gives the error of each path.
            |||,
            runbook_url: u.runbook(c, 'rdmadpairunreachable'),
          },
        },
      ],
    }],
  },
}
