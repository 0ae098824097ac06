// Recording rules of the verdicts, second half: which part broke, from
// the sums and counts of rules/place.libsonnet (added up over the shards
// when there are several: `sum by` drops a shard's own labels).  Each
// verdict is a series of value 1 labelled by the part it names; the
// alerts (alerts/verdicts.libsonnet) fire on them, and a pair that a
// verdict explains is in source_peer:rdmad_mesh_pair_explained:bool so
// that the pair and host alerts stay quiet about it.
//   RdmadTorDown        most of a ToR's hosts unreachable, pairs inside too
//   RdmadTorUplinkDown  pairs into the ToR from other ToRs down, and its own
//                       probers' pairs to other ToRs lossy too, inside fine
//   RdmadTorUplinkLoss  pairs into it from other ToRs lossy, and out of it,
//                       inside fine
//   RdmadTorUnreachable pairs into it from other ToRs down, inside fine, its
//                       own probers' pairs out of it not: one way (a route,
//                       an ACL, a spine-side port)
//   RdmadHostDown       every rail of a host unreachable, its own ToR too
//   RdmadNicDown        one rail of a host unreachable, another rail fine
//   RdmadProberFailing  a prober fails to most peers that others reach
//   RdmadFabricLinkLoss lossy cross-ToR pairs nothing above explains, to or
//                       from one ToR in several ToR pairs: one of its links
//                       under ECMP
local u = import '../lib/util.libsonnet';

{
  prometheusRules+:: {
    local c = $._config,
    local by = function(l) u.by(c, l),
    local s = u.num(c.verdictShare),
    local m = u.num(c.minProbers),
    // sum of a place series by KEYS, where SEL (a why) holds
    local sumBy = function(metric, keys, sel='') 'sum by (%s) (%s%s)' % [by(keys), metric, if sel == '' then '' else '{' + sel + '}'],
    local ratio = function(keys, sel='') '%s\n/\n%s' % [
      sumBy('peer_host_rail:rdmad_mesh_pairs_bad:sum', keys, sel),
      sumBy('peer_host_rail:rdmad_mesh_pairs:count', keys, sel),
    ],
    local lossyRatio = function(keys, sel='') '%s\n/\n%s' % [
      sumBy('peer_host_rail:rdmad_mesh_pairs_lossy:sum', keys, sel),
      sumBy('peer_host_rail:rdmad_mesh_pairs:count', keys, sel),
    ],
    local same = 'why="same ToR"',
    local cross = 'why="cross-ToR"',
    // a ToR-level verdict series renamed for a join on the prober's ToR
    local asSource = function(expr, from, to) 'label_replace(%s, "%s", "$1", "%s", "(.*)")' % [expr, to, from],
    // what explains a host or a NIC being unreachable: its ToR down or cut
    // off; a lossy uplink does not (its pairs lose rounds, they are not
    // down), so a host down under one is still a host down
    local torDownVerdicts = 'tor:rdmad_verdict_down:bool or tor:rdmad_verdict_uplink_down:bool or tor:rdmad_verdict_unreachable:bool',
    local torVerdicts = '(%s or tor:rdmad_verdict_uplink_loss:bool)' % torDownVerdicts,
    // A ToR down at any time in the verdict window: once it is back, its
    // pairs' failed rounds stay in the window's rates a while, and that
    // is the outage's tail, not loss (no uplink-loss verdict for it).
    local vw = c.verdictWindow,
    local torDownRecent = '(max_over_time(tor:rdmad_verdict_down:bool[%s]) or max_over_time(tor:rdmad_verdict_uplink_down:bool[%s]) or max_over_time(tor:rdmad_verdict_unreachable:bool[%s]))' % [vw, vw, vw],
    // The fabric link's count: every verdict that explains lossy pairs,
    // at any time in the last verdictRecent.  An outage's tail (a pair
    // back up with failed rounds still in its window) is not in the
    // count (tor_pair_host:rdmad_mesh_pairs_link:sum); what is left is the few scrapes
    // in which the probers see a part heal one by one, a pair still down
    // after its verdict ended: at 5 s evaluations and a short `for` they
    // made false link verdicts (docs/fleet.md, "Fast").
    local recent = function(m) 'max_over_time(%s[%s])' % [m, c.verdictRecent],
    local torAnyRecent = '(%s)' % std.join(' or ', [recent('tor:rdmad_verdict_%s:bool' % v)
                                                    for v in ['down', 'uplink_down', 'unreachable', 'uplink_loss']]),
    local hostRecent = recent('peer_host:rdmad_verdict_down:bool'),
    local nicRecent = recent('peer_host_rail:rdmad_verdict_nic_down:bool'),
    local proberRecent = 'max by (%s) (%s)' % [by(['source_host']), recent('source:rdmad_verdict_prober:bool')],

    groups+: [{
      name: 'rdmad-verdict.rules',
      rules: [
        // ---- ratios of bad pairs by part
        {
          record: 'peer_host_rail:rdmad_mesh_pairs_bad:ratio',
          expr: ratio(['peer_host', 'peer_tor', 'rail']),
        },
        {
          record: 'peer_host_rail:rdmad_mesh_pairs_bad:sum_all',
          expr: sumBy('peer_host_rail:rdmad_mesh_pairs_bad:sum', ['peer_host', 'peer_tor', 'rail']),
        },
        {
          // the host's best rail: all rails unreachable when >= verdictShare
          record: 'peer_host:rdmad_mesh_pairs_bad:min_rail_ratio',
          expr: 'min by (%s) (peer_host_rail:rdmad_mesh_pairs_bad:ratio)' % by(['peer_host', 'peer_tor']),
        },
        {
          // what its own ToR's hosts see of it
          record: 'peer_host:rdmad_mesh_pairs_bad:same_tor_ratio',
          expr: ratio(['peer_host', 'peer_tor'], same),
        },
        {
          record: 'tor:rdmad_mesh_pairs_bad:inside_ratio',
          expr: ratio(['peer_tor'], same),
        },
        {
          record: 'tor:rdmad_mesh_pairs_bad:cross_ratio',
          expr: ratio(['peer_tor'], cross),
        },
        {
          record: 'tor:rdmad_mesh_pairs_bad:cross_sum',
          expr: sumBy('peer_host_rail:rdmad_mesh_pairs_bad:sum', ['peer_tor'], cross),
        },
        {
          record: 'tor:rdmad_mesh_pairs_lossy:inside_ratio',
          expr: lossyRatio(['peer_tor'], same),
        },
        {
          record: 'tor:rdmad_mesh_pairs_lossy:cross_ratio',
          expr: lossyRatio(['peer_tor'], cross),
        },
        {
          // the other direction: the ToR's probers' cross-ToR pairs that
          // are lossy (or down), as a share of them all; a ToR's uplinks
          // carry both ways, while the ToRs that probe it may be broken
          // ones (their own uplinks lossy) that it does not probe back
          record: 'tor:rdmad_mesh_pairs_lossy:out_ratio',
          expr: 'sum by (%(t)s) (%(lossy)s)\n/\nsum by (%(t)s) (%(all)s)' % {
            t: by(['peer_tor']),
            lossy: asSource(sumBy('tor_pair_host:rdmad_mesh_pairs_lossy:sum', ['source_tor']), 'source_tor', 'peer_tor'),
            all: asSource(sumBy('source_tor:rdmad_mesh_pairs:count', ['source_tor'], cross), 'source_tor', 'peer_tor'),
          },
        },
        {
          record: 'tor:rdmad_mesh_hosts:count',
          expr: 'count by (%s) (peer_host:rdmad_mesh_pairs_bad:min_rail_ratio)' % by(['peer_tor']),
        },
        {
          // hosts of the ToR that no rail reaches
          record: 'tor:rdmad_mesh_hosts_bad:count',
          expr: 'count by (%s) (peer_host:rdmad_mesh_pairs_bad:min_rail_ratio > %s)' % [by(['peer_tor']), s],
        },
        {
          record: 'source_rail:rdmad_mesh_pairs_bad:ratio',
          expr: '%s\n/\n%s' % [
            sumBy('source_rail:rdmad_mesh_pairs_bad:sum', ['instance', 'source_host', 'source_tor', 'rail']),
            sumBy('source_rail:rdmad_mesh_pairs:count', ['instance', 'source_host', 'source_tor', 'rail']),
          ],
        },
        {
          // the prober's best rail: it fails on every rail when > verdictShare
          record: 'source:rdmad_mesh_pairs_bad:min_rail_ratio',
          expr: 'min by (%s) (source_rail:rdmad_mesh_pairs_bad:ratio)' % by(['instance', 'source_host', 'source_tor']),
        },
        // ---- the verdicts: 1, labelled by the part
        {
          record: 'tor:rdmad_verdict_down:bool',
          expr: |||
            (
              tor:rdmad_mesh_hosts_bad:count / tor:rdmad_mesh_hosts:count > %(s)s
              and tor:rdmad_mesh_hosts_bad:count >= %(h)s
              and on (%(t)s) tor:rdmad_mesh_pairs_bad:inside_ratio > %(s)s
            ) * 0 + 1
          ||| % { s: s, h: u.num(c.torMinHosts), t: by(['peer_tor']) },
        },
        {
          record: 'tor:rdmad_verdict_uplink_down:bool',
          expr: |||
            (
              tor:rdmad_mesh_pairs_bad:cross_ratio > %(us)s
              and tor:rdmad_mesh_pairs_bad:cross_sum >= %(m)s
              and on (%(t)s) tor:rdmad_mesh_pairs_bad:inside_ratio <= %(s)s
              and on (%(t)s) tor:rdmad_mesh_pairs_lossy:out_ratio > %(us)s
            ) * 0 + 1
            unless on (%(t)s) tor:rdmad_verdict_down:bool
          ||| % { s: s, us: u.num(c.uplinkShare), m: m, t: by(['peer_tor']) },
        },
        {
          // the pairs into it from other ToRs down (most of them), those
          // inside it fine, its own probers' pairs out of it not (else
          // uplink_down): nothing reaches it from the fabric.  Critical,
          // like the host alerts of its addresses that it explains (a
          // link verdict, a warning, never may)
          record: 'tor:rdmad_verdict_unreachable:bool',
          expr: |||
            (
              tor:rdmad_mesh_pairs_bad:cross_ratio > %(us)s
              and tor:rdmad_mesh_pairs_bad:cross_sum >= %(m)s
              and on (%(t)s) tor:rdmad_mesh_pairs_bad:inside_ratio <= %(s)s
            ) * 0 + 1
            unless on (%(t)s) tor:rdmad_verdict_down:bool
            unless on (%(t)s) tor:rdmad_verdict_uplink_down:bool
          ||| % { s: s, us: u.num(c.uplinkShare), m: m, t: by(['peer_tor']) },
        },
        {
          record: 'tor:rdmad_verdict_uplink_loss:bool',
          expr: |||
            (
              tor:rdmad_mesh_pairs_lossy:cross_ratio > %(us)s
              and on (%(t)s) tor:rdmad_mesh_pairs_lossy:inside_ratio <= %(s)s
              and on (%(t)s) tor:rdmad_mesh_pairs_lossy:out_ratio > %(us)s
            ) * 0 + 1
            unless on (%(t)s) %(recent)s
          ||| % { s: s, us: u.num(c.uplinkShare), t: by(['peer_tor']), recent: torDownRecent },
        },
        {
          record: 'peer_host:rdmad_verdict_down:bool',
          expr: |||
            (
              peer_host:rdmad_mesh_pairs_bad:min_rail_ratio > %(s)s
              and on (%(h)s) sum by (%(h)s) (peer_host_rail:rdmad_mesh_pairs_bad:sum_all) >= %(m)s
              unless on (%(h)s) peer_host:rdmad_mesh_pairs_bad:same_tor_ratio <= %(s)s
            ) * 0 + 1
            unless on (%(t)s) %(tv)s
          ||| % { s: s, m: m, h: by(['peer_host']), t: by(['peer_tor']), tv: '(%s)' % torDownVerdicts },
        },
        {
          record: 'peer_host_rail:rdmad_verdict_nic_down:bool',
          expr: |||
            (
              peer_host_rail:rdmad_mesh_pairs_bad:ratio > %(s)s
              and peer_host_rail:rdmad_mesh_pairs_bad:sum_all >= %(m)s
            ) * 0 + 1
            unless on (%(h)s) peer_host:rdmad_mesh_pairs_bad:min_rail_ratio > %(s)s
            unless on (%(t)s) %(tv)s
          ||| % { s: s, m: m, h: by(['peer_host']), t: by(['peer_tor']), tv: '(%s)' % torDownVerdicts },
        },
        {
          // fails to most of its peers on every rail, while the others
          // reach this host
          record: 'source:rdmad_verdict_prober:bool',
          expr: |||
            (
              source:rdmad_mesh_pairs_bad:min_rail_ratio > %(s)s
              and on (%(i)s) sum by (%(i)s) (source_rail:rdmad_mesh_pairs_bad:sum) >= %(m)s
            ) * 0 + 1
            unless on (%(sh)s) %(hostBad)s
            unless on (%(st)s) %(torV)s
          ||| % { s: s, m: m, i: by(['instance']), sh: by(['source_host']), st: by(['source_tor']),
                  hostBad: asSource('peer_host:rdmad_mesh_pairs_bad:min_rail_ratio > ' + s, 'peer_host', 'source_host'),
                  torV: asSource(torVerdicts, 'peer_tor', 'source_tor') },
        },
        {
          // lossy cross-ToR pairs that no verdict above explains, by ToR pair
          record: 'tor_pair:rdmad_mesh_pairs_unexplained_lossy:sum',
          expr: |||
            sum by (%(k)s) (
              tor_pair_host:rdmad_mesh_pairs_link:sum
              unless on (%(h)s) peer_host:rdmad_mesh_pairs_bad:min_rail_ratio > %(s)s
              unless on (%(hr)s) peer_host_rail:rdmad_verdict_nic_down:bool
              unless on (%(sh)s) %(prober)s
              unless on (%(sh)s) %(srcBad)s
              unless on (%(shr)s) %(srcNic)s
              unless on (%(t)s) %(tv)s
              unless on (%(st)s) %(srcTor)s
              unless on (%(t)s) %(torRecent)s
              unless on (%(st)s) %(srcTorRecent)s
              unless on (%(h)s) %(hostRecent)s
              unless on (%(sh)s) %(srcHostRecent)s
              unless on (%(hr)s) %(nicRecent)s
              unless on (%(shr)s) %(srcNicRecent)s
              unless on (%(sh)s) %(proberRecent)s
            )
          ||| % { k: by(['source_tor', 'peer_tor']), s: s, h: by(['peer_host']), hr: by(['peer_host', 'rail']),
                  torRecent: torAnyRecent, srcTorRecent: asSource(torAnyRecent, 'peer_tor', 'source_tor'),
                  hostRecent: hostRecent, srcHostRecent: asSource(hostRecent, 'peer_host', 'source_host'),
                  nicRecent: nicRecent, srcNicRecent: asSource(nicRecent, 'peer_host', 'source_host'),
                  proberRecent: proberRecent,
                  sh: by(['source_host']), t: by(['peer_tor']), st: by(['source_tor']), tv: torVerdicts,
                  prober: 'max by (%s) (source:rdmad_verdict_prober:bool)' % by(['source_host']),
                  srcBad: asSource('peer_host:rdmad_mesh_pairs_bad:min_rail_ratio > ' + s, 'peer_host', 'source_host'),
                  shr: by(['source_host', 'rail']),
                  srcNic: asSource('peer_host_rail:rdmad_verdict_nic_down:bool', 'peer_host', 'source_host'),
                  srcTor: asSource(torVerdicts, 'peer_tor', 'source_tor') },
        },
        {
          // ToR pairs with unexplained loss a ToR is in, either end
          record: 'tor:rdmad_mesh_tor_pairs_unexplained:count',
          expr: |||
            (
              count by (%(t)s) (tor_pair:rdmad_mesh_pairs_unexplained_lossy:sum)
              + on (%(t)s) %(src)s
            )
            or count by (%(t)s) (tor_pair:rdmad_mesh_pairs_unexplained_lossy:sum)
            or %(src)s
          ||| % { t: by(['peer_tor']),
                  src: 'sum by (%s) (%s)' % [by(['peer_tor']), asSource('count by (%s) (tor_pair:rdmad_mesh_pairs_unexplained_lossy:sum)' % by(['source_tor']), 'source_tor', 'peer_tor')] },
        },
        {
          // one of the ToR's links (ECMP): its cross-ToR pairs lossy in
          // fabricLinkMinTorPairs ToR pairs or more, not most of them
          record: 'tor:rdmad_verdict_link:bool',
          expr: '(tor:rdmad_mesh_tor_pairs_unexplained:count >= %s) * 0 + 1' % u.num(c.fabricLinkMinTorPairs),
        },
      ],
    }, {
      // Where the pairs are (a shard), once the verdicts are there too
      // (federated back from the global Prometheus when sharded).
      name: 'rdmad-explained.rules',
      rules: [
        // ---- the pairs a verdict explains: no pair or host alert for them
        {
          record: 'source_peer:rdmad_mesh_pair_explained:bool',
          expr: |||
            (
              source_peer:rdmad_mesh_pair_lossy:bool == 1
              and on (%(h)s) peer_host:rdmad_verdict_down:bool
              or source_peer:rdmad_mesh_pair_lossy:bool == 1
              and on (%(sh)s) %(srcHost)s
              or source_peer:rdmad_mesh_pair_lossy:bool == 1
              and on (%(hr)s) peer_host_rail:rdmad_verdict_nic_down:bool
              or source_peer:rdmad_mesh_pair_lossy:bool == 1
              and on (%(shr)s) %(srcNic)s
              or source_peer:rdmad_mesh_pair_lossy:bool == 1
              and on (%(t)s) %(tv)s
              or source_peer:rdmad_mesh_pair_lossy:bool == 1
              and on (%(st)s) %(srcTor)s
              or source_peer:rdmad_mesh_pair_lossy:bool == 1
              and on (%(i)s) source:rdmad_verdict_prober:bool
              or source_peer:rdmad_mesh_pair_lossy:bool{why="cross-ToR"} == 1
              and on (%(t)s) tor:rdmad_verdict_link:bool
              or source_peer:rdmad_mesh_pair_lossy:bool{why="cross-ToR"} == 1
              and on (%(st)s) %(srcLink)s
            )
          ||| % { h: by(['peer_host']), hr: by(['peer_host', 'rail']), t: by(['peer_tor']), tv: torVerdicts,
                  sh: by(['source_host']), shr: by(['source_host', 'rail']),
                  srcHost: asSource('peer_host:rdmad_verdict_down:bool', 'peer_host', 'source_host'),
                  srcNic: asSource('peer_host_rail:rdmad_verdict_nic_down:bool', 'peer_host', 'source_host'),
                  st: by(['source_tor']), srcTor: asSource(torVerdicts, 'peer_tor', 'source_tor'),
                  srcLink: asSource('tor:rdmad_verdict_link:bool', 'peer_tor', 'source_tor'),
                  i: by(['instance']) },
        },
      ],
    }],
  },
}
