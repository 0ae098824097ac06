// Every knob of the rdmad mixin.  Override any of them when rendering:
//   monitoring/build OUTDIR '{windowShort: "1m", forShort: "10s"}'
// or, from your own jsonnet: (import 'mixin.libsonnet') + {_config+:: {...}}.
{
  _config+:: {
    // Selects the rdmad scrape targets in every expression (no braces).
    selector: 'job="rdmad"',
    // Labels that tell one fabric from another; every aggregation keeps them
    // (and every join matches on them), so two jobs never mix.
    fabricLabels: ['job'],

    // Window of rates, increases, quantiles and of the "at any time in the
    // window" exclusions.  Several mesh rounds must fit: interval 1 s gives
    // 300 rounds per peer in 5 m.
    windowShort: '5m',
    // A pair down without a break for this long is "down", not "lossy": its
    // failed rounds then raise no RdmadPairLoss for a window.  Keep it
    // below forShort.
    downWindow: '1m',
    // `for` of the alerts about reachability, loss, daemons and ports.
    forShort: '2m',
    // `for` of RdmadPairUnreachable: it no longer waits for the verdict
    // that would explain its pair; the Alertmanager's inhibition rules
    // (rdmad-inhibit.yaml) hold it back while that fires.  Three
    // evaluations at 15 s: a path a lost round took down (down_after 1) is
    // down at one scrape, seldom at three in a row.  (RdmadPairLoss keeps
    // forShort: its rate window sets its pace.)
    pairFor: '30s',
    // `for` of the slow-moving ones: latency, mesh configuration.
    forLong: '10m',

    // RdmadHostUnreachable: at least this share of the host's probers, and at
    // least minProbers of them, see it down.  The same two figures make a
    // prober "isolated" (it cannot reach that share of its peers): its own
    // link, so its pairs raise no pair alerts.
    hostUnreachableShare: 0.5,
    minProbers: 2,
    // The verdicts (rules/place.libsonnet, rules/verdict.libsonnet,
    // alerts/verdicts.libsonnet), from the places of an inventory
    // (docs/fleet.md): which part broke.  A pair is "bad" while it is down
    // or at least verdictShare of its rounds failed over verdictWindow, and
    // "lossy" from lossThreshold on; a part (a host's NIC on a rail, a
    // host, the pairs inside a ToR or into it across the fabric) is broken
    // when more than verdictShare of its pairs are, and at least minProbers
    // of them.  Short on purpose: a verdict within a minute of the fault.
    verdictWindow: '1m',
    verdictFor: '30s',
    // RdmadFabricLinkLoss counts no pair of a part that had a verdict
    // in this last while: the scrapes in which a part heals prober by
    // prober (two evaluations)
    verdictRecent: '30s',
    // `for` of RdmadFabricLinkLoss: the pairs it counts (down at two
    // evaluations in a row, or lossy over windowShort) are a pattern
    // that noise on a few pairs at once can show for an evaluation or
    // two (the fast profile's is longer than its verdictFor)
    linkVerdictFor: '30s',
    verdictShare: 0.5,
    // RdmadTorUplinkDown, RdmadTorUplinkLoss: more than this share of the
    // cross-ToR pairs into the ToR bad (lossy), and of its own probers'
    // cross-ToR pairs lossy (both ways cross it).  Higher than verdictShare:
    // a ToR's uplinks gone fail nearly all of them, while a few broken
    // ToRs elsewhere fail the share of its probers they hold.
    uplinkShare: 0.8,
    // RdmadTorDown: at least this many of the ToR's hosts (and more than
    // verdictShare of them) unreachable, the pairs inside it too.
    torMinHosts: 2,
    // RdmadFabricLinkLoss (one of a ToR's links under ECMP): lossy
    // cross-ToR pairs that no host, NIC, ToR or prober explains, to or from
    // the ToR, in at least this many ToR pairs (a single pair or two are
    // pair alerts).
    fabricLinkMinTorPairs: 3,
    // Sharded (docs/fleet.md, "Sharded"): the rule and alert groups the
    // global Prometheus evaluates; every other group runs on each shard.
    // The global one federates from the shards the series that match
    // federateToGlobal (sums and counts by part), the shards federate back
    // from it those that match federateToShards (the verdicts).
    globalRuleGroups: ['rdmad-verdict.rules', 'rdmad-gray.rules'],
    globalAlertGroups: ['rdmad-verdicts', 'rdmad-gray', 'rdmad-mesh-coverage'],
    federateToGlobal: '{__name__=~"peer_host_rail:rdmad_mesh_pairs(_bad|_lossy)?:(count|sum)|source_rail:rdmad_mesh_pairs(_bad)?:(count|sum)|source_tor:rdmad_mesh_pairs:count|tor_pair_host:rdmad_mesh_pairs_(lossy|link):sum|tor_pair_host:rdmad_mesh_pairs_split:count|(peer_host_rail|source_tor):rdmad_mesh_pairs_decided_(slow|lossy|flapping):count|source_host_rail:rdmad_mesh_pools(_decided_lossy)?:count|source_tor_peer_host:rdmad_mesh_pools_decided_lossy:count|peer_host:rdmad_port_congestion_events:rate|peer:rdmad_mesh_unplaced_probers:count|instance:rdmad_mesh_unplaced_self:info"}',
    federateToShards: '{__name__=~"[a-z_]+:rdmad_verdict_[a-z_]+:(bool|count)"}',
    // The alerts on what each rdmad decided of its pairs
    // (alerts/health.libsonnet: RdmadPairRetransmitting, RdmadPairSlow,
    // RdmadPairFlapping, from rdmad_mesh_peer_health), the gray verdicts
    // that pool those decisions by part (rules/gray.libsonnet,
    // alerts/gray.libsonnet: RdmadNic{Slow,Retransmitting,Flapping},
    // RdmadTorUplink{Slow,Retransmitting,Flapping}) and the
    // Alertmanager's inhibition rules for them: off until their
    // false-alarm rate on a healthy, noisy fabric is measured (the TCG
    // fabric's t-96 and t-99 raised RdmadPairSlow on a healthy pair and
    // RdmadPairRetransmitting on a pair just healed: docs/mesh.md).
    decidedAlerts: false,
    // `for` of those alerts: none, the agent's sequential test already
    // waited for its evidence.
    decidedFor: '0s',
    // A gray verdict names a part only when its share of pairs in the
    // state is more than this many times its control's: a NIC's, the
    // lower of the median NIC's and the fleet's other pairs'; a ToR's cross-ToR pairs', its pairs inside (an uplink
    // fault leaves them clean).  What the whole fleet shows (noise, a
    // fleet-wide cause) names no part.
    grayOutlierFactor: 2,
    // RdmadPairLoss: failed rounds / rounds of a pair over windowShort.
    lossThreshold: 0.05,
    // RdmadLatencySLOBreached: p99 of a pair's verified rounds, seconds.
    latencySLOSeconds: 0.005,
    // RdmadProberOverloaded: more than this share of a prober's rounds over
    // windowShort taken under local pressure (its loop lag or CPU wait
    // above [mesh] prober_lag_max, prober_wait_max: docs/mesh.md, "The
    // prober's share").  At any time in the window it also holds back
    // that prober's RdmadLatencySLOBreached: its pairs' latency is its own.
    proberOverloadedShare: 0.1,
    // RdmadBandwidthLow: a pair's last bandwidth sample below this share of
    // the prober's RDMA port rate.
    bandwidthMinShare: 0.5,
    // RdmadLargeSizesFail: at least this many failed rounds of the larger
    // sizes in windowShort, and none of smallSize.
    smallSize: '64',
    largeSizesMinFailures: 3,
    // RdmadPortFlapping: more than portFlapChanges changes in portFlapWindow.
    portFlapChanges: 4,
    portFlapWindow: '15m',
    // instance_device_port:rdmad_port_error_events:rate: the port's error
    // counters (a regex of counter names: rxe's hw_counters and the
    // InfiniBand PMA's) together, a second, over windowShort.  No alert on
    // the rate alone: on a healthy TCG fabric rxe counts retransmissions
    // (the fabric suite's t-96), and an uplink cut makes every NIC behind
    // it count them (t-99); RdmadNicErrors also wants the pairs to fail.
    portErrorCounters: 'duplicate_request|out_of_seq_request|rcvd_seq_err|rcvd_rnr_err|send_rnr_err|retry_exceeded_err|retry_rnr_exceeded_err|completer_retry_err|send_err|link_downed|symbol_error|link_error_recovery|port_rcv_errors|port_rcv_remote_physical_errors|port_xmit_discards|local_link_integrity_errors|excessive_buffer_overrun_errors',
    // RdmadNicErrors: a port of the prober counts more than nicErrorRate
    // errors a second (portErrorCounters, over windowShort) while at least
    // nicErrorsPairShare of its pairs lose lossThreshold of their rounds
    // (pairs down now, and pairs another verdict explains, left out), and
    // that share is more than nicErrorsOutlierFactor times the median of
    // the rdmads' shares.  Its pairs, both ways, then raise no pair alert.
    nicErrorRate: 0.1,
    nicErrorsPairShare: 0.5,
    nicErrorsOutlierFactor: 2,
    // Congestion, not failure (decidedAlerts): the counters by which a NIC
    // says it met ECN marks or congestion notifications (a regex of counter
    // names: mlx5's np_ecn_marked_roce_packets, np_cnp_sent and
    // rp_cnp_handled; bnxt_re's rx_ecn_marked_pkts, tx_cnp_pkts and
    // rx_cnp_pkts, in later kernels np_ecn_marked_roce_packets,
    // np_cnp_pkts and rp_cnp_handled; irdma's RxECNMrkd, cnpSent and
    // cnpHandled; rxe has none: docs/monitoring.md, "Congestion").  A host
    // counting more than congestionRate of them a second over windowShort
    // is congested: the slow or lossy pairs into its NIC on a rail then
    // name congestion (RdmadNicCongested), not a failing part
    // (RdmadNicSlow, RdmadNicRetransmitting); a ToR with congestionMinHosts
    // congested hosts, its uplinks' (RdmadTorUplinkCongested).
    portCongestionCounters: 'np_ecn_marked_roce_packets|np_cnp_sent|rp_cnp_handled|rx_ecn_marked_pkts|tx_cnp_pkts|rx_cnp_pkts|np_cnp_pkts|RxECNMrkd|cnpSent|cnpHandled',
    congestionRate: 10,
    congestionMinHosts: 2,

    // runbook_url = runbookURLPattern with its one %s replaced by the alert's
    // anchor (a heading of docs/troubleshooting.md).  The default is a
    // placeholder under the documentation domain .example (RFC 2606): it
    // resolves nowhere; override it with where you host the docs, e.g.
    // 'https://wiki.example.com/rdmad/troubleshooting.md#%s'.
    runbookURLPattern: 'https://rdmad.example/docs/troubleshooting.md#%s',

    // Dashboards.
    dashboardTags: ['rdmad'],
    dashboardRefresh: '30s',
    dashboardTimeFrom: 'now-1h',
    dashboardUidPrefix: 'rdmad-',
  },
}
