// Recording rules: every rdmad's own view of its peers turned into answers
// about the fabric.  Identity: a host is its mesh address, the `peer` label
// other hosts probe it by; rdmad_mesh_self_info{peer} joins a prober's
// `instance` to that address, recorded as `source`.  Levels:
//   source_peer:  one prober -> one target (a pair), labels instance, source, peer
//   peer:         one target host, over all its probers
//   source:       one prober, over all its peers
local u = import '../lib/util.libsonnet';

{
  prometheusRules+:: {
    local c = $._config,
    local w = c.windowShort,
    local by = function(l) u.by(c, l),
    local rounds = function(extra) u.sel(c, 'rdmad_mesh_rounds_total', extra),
    // group_left the prober's own address as `source`
    local withSource = ' * on (%s) group_left (source) instance:rdmad_mesh_source:info' % by(['instance']),
    // A pair's rounds, and failed rounds, a second over windowShort: taken
    // once, in two recorded series every ratio below is derived from
    // (rate() over every pair's counters is what a Prometheus pays most
    // for the mesh: tests/bench/prom-cost, docs/fleet.md)
    local pairRate = function(extra) 'sum by (%s) (rate(%s[%s]))' % [by(['instance', 'peer']), rounds(extra), w],
    local all = 'source_peer:rdmad_mesh_rounds:rate',
    local failed = 'source_peer:rdmad_mesh_rounds_failed:rate',

    groups+: [{
      name: 'rdmad-mesh.rules',
      rules: [
        {
          // One series per scraped rdmad: its mesh address as `source`
          // (one of them if several [mesh] targets entries are this host);
          // its `instance` when it is in no targets file.
          record: 'instance:rdmad_mesh_source:info',
          expr: |||
            topk by (%(i)s) (1,
              max by (%(is)s) (label_replace(%(si)s, "source", "$1", "peer", "(.*)"))
            )
            or on (%(i)s)
            max by (%(is)s) (label_replace(%(up)s, "source", "$1", "instance", "(.*)")) * 0 + 1
          ||| % { i: by(['instance']), is: by(['instance', 'source']),
                  si: u.sel(c, 'rdmad_mesh_self_info'), up: u.sel(c, 'up') },
        },
        // ---- pairs: source -> peer
        {
          record: 'source_peer:rdmad_mesh_peer_up:max',
          expr: 'max by (%s) (%s)%s' % [by(['instance', 'peer']), u.sel(c, 'rdmad_mesh_peer_up'), withSource],
        },
        {
          // down without a break for downWindow (value 0; absent otherwise)
          record: 'source_peer:rdmad_mesh_peer_down:sustained',
          expr: 'max_over_time(source_peer:rdmad_mesh_peer_up:max[%s]) == 0' % c.downWindow,
        },
        {
          record: all,
          expr: pairRate('') + withSource,
        },
        {
          // failed rounds: every result but ok (compact series have ok,
          // mismatch and failed)
          record: failed,
          expr: pairRate('result!="ok"') + withSource,
        },
        {
          // loss: failed rounds / rounds
          record: 'source_peer:rdmad_mesh_rounds_failed:ratio',
          expr: '%s / %s' % [failed, all],
        },
        {
          record: 'source_peer:rdmad_mesh_rounds_mismatch:increase',
          expr: 'sum by (%s) (increase(%s[%s]))%s'
                % [by(['instance', 'peer']), rounds('result="mismatch"'), w, withSource],
        },
        {
          // full series: from the pair's histogram; compact ([mesh]
          // peer_series): the p99 rdmad computes of the pair's recent rounds
          record: 'source_peer:rdmad_mesh_round_duration_seconds:p99',
          expr: '(\n  histogram_quantile(0.99, sum by (%s) (rate(%s[%s])))\nor\n  max by (%s) (%s)\n)%s'
                % [by(['instance', 'peer', 'le']), u.sel(c, 'rdmad_mesh_round_duration_seconds_bucket'), w,
                   by(['instance', 'peer']), u.sel(c, 'rdmad_mesh_round_p99_seconds'), withSource],
        },
        {
          record: 'source_peer:rdmad_mesh_bandwidth_bytes_per_second:last',
          expr: 'max by (%s) (%s)%s'
                % [by(['instance', 'peer']), u.sel(c, 'rdmad_mesh_bandwidth_bytes_per_second'), withSource],
        },
        {
          // the last sample over the prober's fastest RDMA port
          record: 'source_peer:rdmad_mesh_bandwidth_port_rate:ratio',
          expr: 'source_peer:rdmad_mesh_bandwidth_bytes_per_second:last\n/ on (%s) group_left\nmax by (%s) (%s)'
                % [by(['instance']), by(['instance']), u.sel(c, 'rdmad_port_rate_bytes_per_second')],
        },
        // ---- a mesh of plain targets files (rdmads without a place): how
        // many rdmads probe each address, and each rdmad's own addresses,
        // for RdmadMeshNotProbed, which compares them across the fabric
        // (on the global Prometheus when sharded: a shard holds only its
        // rdmads).  With an inventory the selection covers every host, and
        // these have no series.
        {
          record: 'peer:rdmad_mesh_unplaced_probers:count',
          expr: 'count by (%s) (%s unless on (%s) %s)'
                % [by(['peer']), u.sel(c, 'rdmad_mesh_peer_up'), by(['instance']), u.sel(c, 'rdmad_mesh_place_info')],
        },
        {
          record: 'instance:rdmad_mesh_unplaced_self:info',
          expr: 'max by (%s) (%s unless on (%s) %s)'
                % [by(['instance', 'peer']), u.sel(c, 'rdmad_mesh_self_info'), by(['instance']), u.sel(c, 'rdmad_mesh_place_info')],
        },
        // ---- target hosts: what its probers see
        {
          record: 'peer:rdmad_mesh_probers:count',
          expr: 'count by (%s) (%s)' % [by(['peer']), u.sel(c, 'rdmad_mesh_peer_up')],
        },
        {
          record: 'peer:rdmad_mesh_probers_down:count',
          expr: 'sum by (%s) (1 - %s)' % [by(['peer']), u.sel(c, 'rdmad_mesh_peer_up')],
        },
        {
          // the share of its probers that cannot reach the host
          record: 'peer:rdmad_mesh_probers_down:ratio',
          expr: 'avg by (%s) (1 - %s)' % [by(['peer']), u.sel(c, 'rdmad_mesh_peer_up')],
        },
        {
          record: 'peer:rdmad_mesh_rounds_failed:ratio',
          expr: 'sum by (%(b)s) (%(f)s)\n/\nsum by (%(b)s) (%(a)s)'
                % { b: by(['peer']), f: failed, a: all },
        },
        // ---- probers: what each host sees of its peers
        {
          record: 'source:rdmad_mesh_peers_down:count',
          expr: 'sum by (%s) (1 - %s)%s' % [by(['instance']), u.sel(c, 'rdmad_mesh_peer_up'), withSource],
        },
        {
          // the share of its peers a host cannot reach: high alone = its own link
          record: 'source:rdmad_mesh_peers_down:ratio',
          expr: 'avg by (%s) (1 - %s)%s' % [by(['instance']), u.sel(c, 'rdmad_mesh_peer_up'), withSource],
        },
        {
          // the share of its rounds a prober took under local pressure
          // (docs/mesh.md, "The prober's share")
          record: 'source:rdmad_mesh_rounds_pressured:ratio',
          expr: '(\n  sum by (%(b)s) (rate(%(p)s[%(w)s]))\n/\n  sum by (%(b)s) (%(a)s)\n)%(s)s'
                % { b: by(['instance']), p: u.sel(c, 'rdmad_mesh_prober_rounds_pressured_total'), a: all, w: w, s: withSource },
        },
        {
          record: 'source:rdmad_mesh_rounds_failed:ratio',
          expr: 'sum by (%(b)s) (%(f)s)\n/\nsum by (%(b)s) (%(a)s)'
                % { b: by(['instance', 'source']), f: failed, a: all },
        },
      ],
    }],
  },
}
