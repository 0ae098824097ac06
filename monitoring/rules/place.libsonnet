// Recording rules of the verdicts, first half: every pair with the places
// of both ends (an inventory with topology, docs/fleet.md), and sums and
// counts of pairs by the part they cross.  Sums and counts, not ratios:
// they add up across Prometheus shards, so a shard evaluates this group on
// its own rdmads and the global Prometheus adds the shards' series up
// (rules/verdict.libsonnet; docs/fleet.md, "Verdicts").  Without topology
// no rdmad exports a place and every series here is empty.
//   source_peer:   a pair, with peer_host, peer_tor, rail, why (same ToR,
//                  cross-ToR) and the prober's source_host, source_tor
//   peer_host_rail: pairs into one host's NIC on one rail, split by why
//   source_rail:   pairs of one prober on one rail
//   source_tor:    pairs of a ToR's probers, by why (a count only)
//   tor_pair_host: lossy cross-ToR pairs, only those (a sparse series set),
//                  and those with a link's pattern (down, or lossy for long)
local u = import '../lib/util.libsonnet';

{
  prometheusRules+:: {
    local c = $._config,
    local vw = c.verdictWindow,
    local by = function(l) u.by(c, l),
    local rounds = function(extra) u.sel(c, 'rdmad_mesh_rounds_total', extra),
    local pairRate = function(extra) 'sum by (%s) (rate(%s[%s]))' % [by(['instance', 'peer']), rounds(extra), vw],
    local peerUp = 'max by (%s) (%s)' % [by(['instance', 'peer']), u.sel(c, 'rdmad_mesh_peer_up')],
    local placed = u.placed(c),
    local pairKeys = ['peer_host', 'peer_tor', 'rail', 'why'],

    groups+: [{
      name: 'rdmad-place.rules',
      rules: [
        {
          // where the prober stands: its host and ToR (rdmad_mesh_place_info)
          record: 'instance:rdmad_mesh_place:info',
          expr: 'max by (%s) (label_replace(label_replace(%s, "source_host", "$1", "host", "(.*)"), "source_tor", "$1", "tor", "(.*)"))'
                % [by(['instance', 'source_host', 'source_tor']), u.sel(c, 'rdmad_mesh_place_info')],
        },
        {
          // where each peer stands and why it is probed: rdmad_mesh_peer_info
          // ([mesh] peer_series = full), or the labels of rdmad_mesh_peer_up
          // (compact)
          record: 'source_peer:rdmad_mesh_place:info',
          expr: 'max by (%(k)s) (%(info)s)\nor\nmax by (%(k)s) (%(up)s) * 0 + 1'
                % { k: by(['instance', 'peer'] + pairKeys), info: u.sel(c, 'rdmad_mesh_peer_info'),
                    up: u.sel(c, 'rdmad_mesh_peer_up', 'peer_host!=""') },
        },
        {
          // failed rounds / rounds of a pair over the short verdict window
          record: 'source_peer:rdmad_mesh_rounds_failed:verdict_ratio',
          expr: '%s\n/\n%s' % [pairRate('result!="ok"'), pairRate('')],
        },
      ] + (
        // Bad (down, or verdictShare of its rounds failed) and lossy (down,
        // or lossThreshold failed): the one of the higher threshold is
        // taken from the pair's state and place, the other from it (a pair
        // past the higher is past the lower), so that the pairs' state and
        // places are joined once a cycle, not twice (tests/bench/prom-cost)
        local bad = { name: 'source_peer:rdmad_mesh_pair_bad:bool', t: c.verdictShare },
              lossy = { name: 'source_peer:rdmad_mesh_pair_lossy:bool', t: c.lossThreshold },
              hi = if c.verdictShare >= c.lossThreshold then bad else lossy,
              lo = if c.verdictShare >= c.lossThreshold then lossy else bad;
        [
          {
            // 1: the pair is down now, or its failed share of the verdict
            // window is at least the higher threshold
            record: hi.name,
            expr: |||
              (
                clamp_max((source_peer:rdmad_mesh_rounds_failed:verdict_ratio >= bool %(t)s) + on (%(p)s) (1 - %(up)s), 1)
                or on (%(p)s) (1 - %(up)s)
              )
            ||| % { t: u.num(hi.t), p: by(['instance', 'peer']), up: peerUp } + placed,
          },
          {
            // 1: the pairs above, and those whose failed share is at
            // least the lower threshold
            record: lo.name,
            expr: |||
              clamp_max(%(hi)s + on (%(p)s) group_left () (source_peer:rdmad_mesh_rounds_failed:verdict_ratio >= bool %(t)s), 1)
              or %(hi)s
            ||| % { hi: hi.name, t: u.num(lo.t), p: by(['instance', 'peer']) },
          },
        ]
      ) + [
        // ---- into a host's NIC on a rail, by why
        {
          record: 'peer_host_rail:rdmad_mesh_pairs:count',
          expr: 'count by (%s) (source_peer:rdmad_mesh_pair_bad:bool)' % by(pairKeys),
        },
        {
          record: 'peer_host_rail:rdmad_mesh_pairs_bad:sum',
          expr: 'sum by (%s) (source_peer:rdmad_mesh_pair_bad:bool)' % by(pairKeys),
        },
        {
          record: 'peer_host_rail:rdmad_mesh_pairs_lossy:sum',
          expr: 'sum by (%s) (source_peer:rdmad_mesh_pair_lossy:bool)' % by(pairKeys),
        },
        // ---- of a prober, by rail
        {
          record: 'source_rail:rdmad_mesh_pairs:count',
          expr: 'count by (%s) (source_peer:rdmad_mesh_pair_bad:bool)' % by(['instance', 'source_host', 'source_tor', 'rail']),
        },
        {
          record: 'source_rail:rdmad_mesh_pairs_bad:sum',
          expr: 'sum by (%s) (source_peer:rdmad_mesh_pair_bad:bool)' % by(['instance', 'source_host', 'source_tor', 'rail']),
        },
        // ---- out of a ToR: its probers' pairs by why (the uplink
        // verdicts' other direction; the lossy cross-ToR ones are
        // tor_pair_host's)
        {
          record: 'source_tor:rdmad_mesh_pairs:count',
          expr: 'count by (%s) (source_peer:rdmad_mesh_pair_bad:bool)' % by(['source_tor', 'why']),
        },
        {
          // lossy cross-ToR pairs only: what a fabric link (ECMP) verdict reads
          record: 'tor_pair_host:rdmad_mesh_pairs_lossy:sum',
          expr: 'sum by (%s) (source_peer:rdmad_mesh_pair_lossy:bool{why="cross-ToR"} == 1)'
                % by(['source_host', 'source_tor', 'peer_host', 'peer_tor', 'rail']),
        },
        {
          // what a fabric link (ECMP) verdict counts, a pattern random
          // failed rounds do not make: cross-ToR pairs down at two
          // evaluations in a row (verdictRecent; a lost round's path is
          // down for a scrape at most), or losing lossThreshold of their
          // rounds over windowShort and over verdictWindow (still now:
          // not a lossy uplink's tail) while up all along (not an
          // outage's tail).  1 % of rounds lost at random reach 5 % of a
          // minute's rounds, not of 5 minutes'.
          record: 'tor_pair_host:rdmad_mesh_pairs_link:sum',
          expr: |||
            sum by (%(k)s) (
              source_peer:rdmad_mesh_pair_lossy:bool{why="cross-ToR"} * 0 + 1
              and on (%(p)s) (
                max by (%(p)s) (max_over_time(%(up)s[%(r)s])) == 0
                or source_peer:rdmad_mesh_rounds_failed:ratio >= %(l)s
                and on (%(p)s) source_peer:rdmad_mesh_rounds_failed:verdict_ratio >= %(l)s
                and on (%(p)s) min by (%(p)s) (min_over_time(%(up)s[%(w)s])) == 1
              )
            )
          ||| % { k: by(['source_host', 'source_tor', 'peer_host', 'peer_tor', 'rail']), p: by(['instance', 'peer']),
                  up: u.sel(c, 'rdmad_mesh_peer_up'), r: c.verdictRecent, w: c.windowShort, l: u.num(c.lossThreshold) },
        },
      ],
    }],
  },
}
