// Recording rules of the gray verdicts: what the agents decided of their
// pairs (rdmad_mesh_peer_health: 2 slow, 3 lossy, 5 flapping; docs/mesh.md,
// "Decided in the agent"), pooled by the part the pairs cross.  No rate
// window: each agent's sequential test already waited for its evidence, so
// a part is named as soon as enough of its pairs were decided.  With
// decidedAlerts only (the alerts on what the agents decided): off, the
// groups are not rendered.
//   first group (where the pairs are: each shard), counts of the pairs in
//   each state, by part; sparse: a healthy fleet has none of them
//     peer_host_rail: pairs into a host's NIC on a rail, split by why
//     source_tor:     pairs of a ToR's probers, by why
//   and the agents' place pools (rdmad_mesh_rail_place_health)
//     source_host_rail:     each prober's pools that learnt, and those
//                           decided lossy, by rail and why
//     source_tor_peer_host: the peers in a ToR's probers' lossy cross-ToR
//                           pools
//   and the pairs whose paths the agents found split (some lossy, a
//   sibling clean: rdmad_mesh_peer_paths_split), with both ends' places
//     tor_pair_host:  by prober, peer and why (sparse)
//   second group (global), for each state (slow, lossy, flapping):
//     peer_host_rail:rdmad_verdict_nic_STATE:bool  more than verdictShare
//       of the pairs into a host's NIC on a rail, from minProbers probers
//       at least, those from its own ToR too when it has some: its port,
//       cable or NIC
//     tor:rdmad_verdict_uplink_STATE:bool  more than verdictShare of the
//       cross-ToR pairs into a ToR and of its probers' cross-ToR pairs,
//       minProbers at least each way, and at most verdictShare of the
//       pairs inside it: its uplinks
//     tor:rdmad_verdict_link_lossy:bool  cross-ToR pairs into or out
//       of a ToR split (each kept under the end whose ToR has more split
//       pairs, both on a tie), from minProbers probers at least, with two other
//       ToRs at least (one in a fleet of two ToRs: a ToR whose partner's
//       link it is sees its split pairs with that one ToR alone), its
//       share of split cross-ToR pairs more than grayOutlierFactor times
//       the fleet's share of split same-ToR pairs (which cross no ECMP
//       link; add-one, (split + 1) / (pairs + 1): a small fleet's few
//       same-ToR pairs are no proof that they never split), no uplink
//       verdict on it (now or verdictRecent ago), the pairs into or out of
//       a NIC with a lossy verdict left out: one of its ECMP links, only
//       the paths hashed onto it lossy
//   lossy also from the place pools, often sooner: a NIC when its host's
//   own pools on the rail are all lossy (both places); a ToR's uplinks
//   when more than verdictShare of its probers' cross-ToR pools are, from
//   minProbers hosts, holding two peers at least, while at most
//   verdictShare of their same-ToR ones are
//   and congestion (the first group: each host's congestion counters,
//   portCongestionCounters, a second; the second: a host, a ToR
//   congested), which turns a slow or lossy part's alert into
//   RdmadNicCongested or RdmadTorUplinkCongested (alerts/gray.libsonnet).
//   Each also more than grayOutlierFactor times its control: a NIC's share
//   against the lower of the median NIC's and the share of the fleet's
//   other pairs (those not into it), the share of a ToR's cross-ToR pairs against
//   that of the pairs inside it (when it has some): noise that turns pairs
//   everywhere names no part.  A hard verdict on the same part (or its
//   ToR) holds a gray one back.
local u = import '../lib/util.libsonnet';

{
  prometheusRules+:: {
    local c = $._config,
    local by = function(l) u.by(c, l),
    local s = u.num(c.verdictShare),
    local m = u.num(c.minProbers),
    local states = { slow: 2, lossy: 3, flapping: 5 },
    local pairKeys = ['peer_host', 'peer_tor', 'rail', 'why'],
    local hostKeys = ['peer_host', 'peer_tor', 'rail'],
    local sumBy = function(metric, keys, sel='') 'sum by (%s) (%s%s)' % [by(keys), metric, if sel == '' then '' else '{' + sel + '}'],
    local decided = function(st) 'peer_host_rail:rdmad_mesh_pairs_decided_%s:count' % st,
    local srcDecided = function(st) 'source_tor:rdmad_mesh_pairs_decided_%s:count' % st,
    // the share of a part's pairs in a state (absent: none in it)
    local share = function(st, keys, sel='') '%s\n/\n%s' % [
      sumBy(decided(st), keys, sel),
      sumBy('peer_host_rail:rdmad_mesh_pairs:count', keys, sel),
    ],
    // the share in the state of the fleet's pairs not into the part
    local others = function(st, keys) '((%s - on (%s) group_right () %s)\n/ (%s - on (%s) group_right () %s))' % [
      sumBy(decided(st), []), by([]), sumBy(decided(st), keys),
      sumBy('peer_host_rail:rdmad_mesh_pairs:count', []), by([]), sumBy('peer_host_rail:rdmad_mesh_pairs:count', keys)],
    // the share, 0 for the parts with pairs but none in the state: what
    // the fleet's median is taken of
    local share0 = function(st, keys, sel='') '(%s\nor %s * 0)' % [
      share(st, keys, sel), sumBy('peer_host_rail:rdmad_mesh_pairs:count', keys, sel)],
    // more than grayOutlierFactor times the fleet's own share: a state
    // that most parts share (noise everywhere, a fleet-wide cause) names
    // none of them.  The fleet's share is the lower of two: the median
    // part's (one faulty part cannot move it in a large fleet), and the
    // share of the pairs not into this part (in a small fleet a faulty
    // host's own pairs out raise the median: 4 hosts, one flapping, NICs
    // at 100, 50, 50 and 0 %)
    local outlier = function(st, keys) '(%s > on (%s) group_left () (%s * quantile by (%s) (0.5, %s))\nor %s > (%s * %s))' % [
      share(st, keys), by([]), u.num(c.grayOutlierFactor), by([]), share0(st, keys),
      share(st, keys), u.num(c.grayOutlierFactor), others(st, keys)],
    local asSource = function(expr, from, to) 'label_replace(%s, "%s", "$1", "%s", "(.*)")' % [expr, to, from],
    local same = 'why="same ToR"',
    local cross = 'why="cross-ToR"',
    local torHard = '(tor:rdmad_verdict_down:bool or tor:rdmad_verdict_uplink_down:bool or tor:rdmad_verdict_unreachable:bool)',
    // The place pools (lossy only): a verdict from the probers' own agents,
    // which pool each place's rounds and so decide sooner than the pairs
    // one by one (docs/mesh.md, "Decided in the agent")
    local pools = 'source_host_rail:rdmad_mesh_pools:count',
    local poolsLossy = 'source_host_rail:rdmad_mesh_pools_decided_lossy:count',
    local poolKeys = ['source_host', 'source_tor', 'rail', 'why'],
    local poolMembers = 'source_tor_peer_host:rdmad_mesh_pools_decided_lossy:count',
    local placedSource = '* on (%s) group_left (source_host, source_tor) instance:rdmad_mesh_place:info' % by(['instance']),
    local asPeer = function(e) asSource(asSource(e, 'source_host', 'peer_host'), 'source_tor', 'peer_tor'),
    local hostRail = ['source_host', 'source_tor', 'rail'],
    local poolShare = function(keys, sel='') '(%s\n/\n%s)' % [sumBy(poolsLossy, keys, sel), sumBy(pools, keys, sel)],
    local poolShare0 = function(keys, sel='') '(%s\nor %s * 0)' % [poolShare(keys, sel), sumBy(pools, keys, sel)],
    // a host's NIC on a rail: every place pool of its own there lossy (both
    // places: all its peers on the rail, under its ToR and beyond), more
    // than grayOutlierFactor times the share of the other hosts' pools
    // lossy (noise everywhere names no host)
    local nicPools = |||
      max by (%(hk)s) (%(asPeer)s)
    ||| % { hk: by(hostKeys), asPeer: asPeer(|||
      (
        %(lossy)s == %(all)s
        and %(all)s >= 2
        and %(share)s > (%(f)s * ((%(lossyAll)s - on (%(e)s) group_right () %(lossy)s)
                                 / (%(allAll)s - on (%(e)s) group_right () %(all)s)))
      )
    ||| % { lossy: sumBy(poolsLossy, hostRail), all: sumBy(pools, hostRail), share: poolShare(hostRail),
            f: u.num(c.grayOutlierFactor), e: by([]), lossyAll: sumBy(poolsLossy, []), allAll: sumBy(pools, [])}) },
    // a ToR's uplinks: more than verdictShare of its probers' cross-ToR
    // pools lossy (minProbers hosts at least), at most verdictShare of
    // their same-ToR ones, and the cross share more than grayOutlierFactor
    // times the same-ToR one; those lossy pools holding two peers at least
    // (where its probers each hold one and the same peer across ToRs, that
    // peer's own port makes them lossy: its NIC verdict, not the uplinks)
    local uplinkPools = 'max by (%s) (%s)' % [by(['peer_tor']), asSource(|||
      (
        %(cross)s > %(s)s
        and count by (%(t)s) (sum by (%(ht)s) (%(crossLossy)s)) >= %(m)s
        and count by (%(t)s) (sum by (%(tp)s) (%(members)s)) >= 2
        and %(cross)s > on (%(t)s) (%(f)s * %(same0)s)
      )
      unless on (%(t)s) (%(same)s > %(s)s)
    ||| % { cross: poolShare(['source_tor'], cross), same: poolShare(['source_tor'], same),
            same0: poolShare0(['source_tor'], same), crossLossy: '%s{%s}' % [poolsLossy, cross],
            ht: by(['source_host', 'source_tor']), t: by(['source_tor']), s: s, m: m,
            tp: by(['source_tor', 'peer_host']), members: poolMembers,
            f: u.num(c.grayOutlierFactor) }, 'source_tor', 'peer_tor')],

    // the pairs split (some of their paths lossy, a sibling clean), but
    // those into or out of a NIC named lossy: its port, not a link
    local split = 'tor_pair_host:rdmad_mesh_pairs_split:count',
    local splitUnexplained = function(sel) |||
      (
        %(split)s{%(sel)s}
        unless on (%(hr)s) peer_host_rail:rdmad_verdict_nic_lossy:bool
        unless on (%(sr)s) %(srcNic)s
      )
    ||| % { split: split, sel: sel, hr: by(['peer_host', 'rail']), sr: by(['source_host', 'rail']),
            srcNic: asSource('peer_host_rail:rdmad_verdict_nic_lossy:bool', 'peer_host', 'source_host') },
    // the same, each pair once under each of its ends' ToRs: "tor" the
    // end's, "other_tor" the other end's
    local splitEndsAll = |||
      (
        label_replace(label_replace(%(x)s, "tor", "$1", "peer_tor", "(.*)"), "other_tor", "$1", "source_tor", "(.*)")
        or
        label_replace(label_replace(%(x)s, "tor", "$1", "source_tor", "(.*)"), "other_tor", "$1", "peer_tor", "(.*)")
      )
    ||| % { x: std.rstripChars(splitUnexplained(cross), '\n') },
    // ... kept under the end whose ToR has more split pairs in all (both
    // on a tie): a ToR with a lossy link splits pairs with many ToRs,
    // each of which then holds a few split pairs with it alone, or with
    // two such ToRs when two links are lossy at once
    local splitTotal = 'sum by (%s) (%s)' % [by(['tor']), std.rstripChars(splitEndsAll, '\n')],
    local splitEnds = |||
      (
        %(all)s
        and
        (
          %(all)s * 0 + on (%(t)s) group_left () %(tot)s
          >= on (%(o)s) group_left ()
          label_replace(%(tot)s, "other_tor", "$1", "tor", "(.*)")
        )
      )
    ||| % { all: std.rstripChars(splitEndsAll, '\n'), tot: splitTotal, t: by(['tor']), o: by(['other_tor']) },
    local uplinkRecent = 'max_over_time(tor:rdmad_verdict_uplink_lossy:bool[%s])' % c.verdictRecent,

    groups+: if !c.decidedAlerts then [] else [{
      name: 'rdmad-gray-place.rules',
      rules: [
        {
          // what the prober decided of the pair, with both ends' places
          record: 'source_peer:rdmad_mesh_pair_health:max',
          expr: 'max by (%s) (%s)\n' % [by(['instance', 'peer']), u.sel(c, 'rdmad_mesh_peer_health')] + u.placed(c),
        },
      ] + [
        {
          record: decided(st),
          expr: 'count by (%s) (source_peer:rdmad_mesh_pair_health:max == %d)' % [by(pairKeys), states[st]],
        }
        for st in std.objectFields(states)
      ] + [
        {
          record: srcDecided(st),
          expr: 'count by (%s) (source_peer:rdmad_mesh_pair_health:max == %d)' % [by(['source_tor', 'why']), states[st]],
        }
        for st in std.objectFields(states)
      ] + [
        {
          // each prober's place pools (rdmad_mesh_rail_place_health: its
          // rail's peers under its own ToR, and under the others, each
          // place's rounds together, across epochs), those that have learnt
          // (healthy or worse), by its host, rail and place: 1 each
          record: pools,
          expr: 'count by (%s) ((%s >= 1)\n%s)' % [by(poolKeys), u.sel(c, 'rdmad_mesh_rail_place_health'), placedSource],
        },
        {
          // those its agent decided lossy: sparse
          record: poolsLossy,
          expr: 'count by (%s) ((%s == %d)\n%s)' % [by(poolKeys), u.sel(c, 'rdmad_mesh_rail_place_health'), states.lossy, placedSource],
        },
        {
          // the peers in each ToR's probers' lossy cross-ToR pools, by
          // rail: how many of those pools hold each (sparse)
          record: poolMembers,
          expr: |||
            count by (%(k)s) (
              (
                source_peer:rdmad_mesh_place:info{%(cross)s}
                and on (%(ir)s) (%(health)s == %(lossy)d)
              )
            %(src)s)
          ||| % { k: by(['source_tor', 'peer_host', 'rail']), cross: cross, ir: by(['instance', 'rail']),
                  health: u.sel(c, 'rdmad_mesh_rail_place_health', cross), lossy: states.lossy,
                  src: placedSource },
        },
        {
          // the pairs whose paths its prober's agent found split: some
          // lossy while a sibling stays clean (docs/mesh.md, "Which paths
          // see it"), with both ends' places (sparse)
          record: split,
          expr: 'count by (%s) ((%s > 0)\n%s)' % [
            by(['source_host', 'source_tor', 'peer_host', 'peer_tor', 'rail', 'why']),
            u.sel(c, 'rdmad_mesh_peer_paths_split'), u.placed(c)],
        },
        {
          // congestion events a second (portCongestionCounters) on all the
          // ports of a host, named as its probers name it, with its ToR:
          // none on NICs that export no such counter (rxe)
          record: 'peer_host:rdmad_port_congestion_events:rate',
          expr: |||
            sum by (%(ht)s) (label_replace(label_replace(
              sum by (%(i)s) (rate(%(m)s[%(w)s]))
              * on (%(i)s) group_left (source_host, source_tor) instance:rdmad_mesh_place:info,
              "peer_host", "$1", "source_host", "(.*)"), "peer_tor", "$1", "source_tor", "(.*)"))
          ||| % { ht: by(['peer_host', 'peer_tor']), i: by(['instance']),
                  m: u.sel(c, 'rdmad_port_events_total', 'counter=~"%s"' % c.portCongestionCounters),
                  w: c.windowShort },
        },
      ],
    }, {
      name: 'rdmad-gray.rules',
      rules: [
        {
          record: 'peer_host_rail:rdmad_verdict_nic_%s:bool' % st,
          expr: |||
            (
              (
                %(share)s > %(s)s
                and %(n)s >= %(m)s
                and %(outlier)s
              )
              unless on (%(hr)s) (%(sameShare)s <= %(s)s)%(pools)s
            ) * 0 + 1
            unless on (%(h)s) peer_host:rdmad_verdict_down:bool
            unless on (%(hr)s) peer_host_rail:rdmad_verdict_nic_down:bool
            unless on (%(t)s) %(torHard)s
          ||| % { share: share(st, hostKeys), n: sumBy(decided(st), hostKeys), s: s, m: m,
                  outlier: outlier(st, hostKeys),
                  sameShare: '(%s\n/\n%s\nor %s * 0)' % [sumBy(decided(st), hostKeys, same),
                                                        sumBy('peer_host_rail:rdmad_mesh_pairs:count', hostKeys, same),
                                                        sumBy('peer_host_rail:rdmad_mesh_pairs:count', hostKeys, same)],
                  hr: by(['peer_host', 'rail']), h: by(['peer_host']), t: by(['peer_tor']), torHard: torHard,
                  pools: if st == 'lossy' then '\nor on (%s)\n%s' % [by(['peer_host', 'rail']), nicPools] else '' },
        }
        for st in std.objectFields(states)
      ] + [
        {
          record: 'tor:rdmad_verdict_uplink_%s:bool' % st,
          expr: |||
            (
              (
                %(into)s > %(s)s
                and %(nInto)s >= %(m)s
                and %(outlier)s
                and on (%(t)s) %(out)s > %(s)s
                and on (%(t)s) %(nOut)s >= %(m)s
              )
              unless on (%(t)s) (%(inside)s > %(s)s)%(pools)s
            ) * 0 + 1
            unless on (%(t)s) %(torHard)s
          ||| % { into: share(st, ['peer_tor'], cross), nInto: sumBy(decided(st), ['peer_tor'], cross),
                  outlier: '(%s > on (%s) (%s * %s)\nor %s unless on (%s) %s)' % [
                    share(st, ['peer_tor'], cross), by(['peer_tor']), u.num(c.grayOutlierFactor),
                    share0(st, ['peer_tor'], same), share(st, ['peer_tor'], cross), by(['peer_tor']),
                    sumBy('peer_host_rail:rdmad_mesh_pairs:count', ['peer_tor'], same)],
                  out: '%s\n/\n%s' % [asSource(sumBy(srcDecided(st), ['source_tor'], cross), 'source_tor', 'peer_tor'),
                                      asSource(sumBy('source_tor:rdmad_mesh_pairs:count', ['source_tor'], cross), 'source_tor', 'peer_tor')],
                  nOut: asSource(sumBy(srcDecided(st), ['source_tor'], cross), 'source_tor', 'peer_tor'),
                  inside: share(st, ['peer_tor'], same),
                  s: s, m: m, t: by(['peer_tor']), torHard: torHard,
                  pools: if st == 'lossy' then '\nor on (%s)\n%s' % [by(['peer_tor']), uplinkPools] else '' },
        }
        for st in std.objectFields(states)
      ] + [
        {
          // one of a ToR's ECMP links (rules header)
          record: 'tor:rdmad_verdict_link_lossy:bool',
          expr: |||
            label_replace(
              (
                count by (%(et)s) (count by (%(ets)s) (%(ends)s)) >= %(m)s
                and on (%(et)s)
                count by (%(et)s) (count by (%(eto)s) (%(ends)s))
                >= on (%(e)s) group_left () clamp_max(count by (%(e)s) (sum by (%(est)s) (source_tor:rdmad_mesh_pairs:count)) - 1, 2)
                and on (%(et)s)
                (
                  sum by (%(et)s) (%(ends)s)
                  / on (%(et)s)
                  (
                    sum by (%(et)s) (label_replace(source_tor:rdmad_mesh_pairs:count{%(cross)s}, "tor", "$1", "source_tor", "(.*)"))
                    + on (%(et)s)
                    sum by (%(et)s) (label_replace(peer_host_rail:rdmad_mesh_pairs:count{%(cross)s}, "tor", "$1", "peer_tor", "(.*)"))
                  )
                )
                > on (%(e)s) group_left ()
                (
                  %(f)s * (
                    (sum by (%(e)s) (%(split)s{%(same)s}) or %(zero)s) + 1
                  )
                  / ((sum by (%(e)s) (source_tor:rdmad_mesh_pairs:count{%(same)s}) or %(zero)s) + 1)
                )
              ) * 0 + 1,
              "peer_tor", "$1", "tor", "(.*)")
            unless on (%(t)s) %(recent)s
            unless on (%(t)s) %(torHard)s
          ||| % { et: by(['tor']), ets: by(['tor', 'source_host']), eto: by(['tor', 'other_tor']),
                  est: by(['source_tor']), ends: std.rstripChars(splitEnds, '\n'), cross: cross, same: same, m: m,
                  t: by(['peer_tor']), e: by([]), split: split, f: u.num(c.grayOutlierFactor), recent: uplinkRecent,
                  zero: 'sum by (%s) (source_tor:rdmad_mesh_pairs:count) * 0' % by([]), torHard: torHard },
        },
        {
          // 1: the host counts more than congestionRate congestion events a
          // second: what is slow or lossy into it is congestion
          record: 'peer_host:rdmad_port_congested:bool',
          expr: '(peer_host:rdmad_port_congestion_events:rate > %s) * 0 + 1' % u.num(c.congestionRate),
        },
        {
          // 1: congestionMinHosts of the ToR's hosts congested: what is slow
          // or lossy on its uplinks is congestion
          record: 'tor:rdmad_port_congested:bool',
          expr: '(count by (%s) (peer_host:rdmad_port_congested:bool) >= %s) * 0 + 1'
                % [by(['peer_tor']), u.num(c.congestionMinHosts)],
        },
      ],
    }],
  },
}
