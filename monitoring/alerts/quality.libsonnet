// How well the pairs that work work: loss, latency, bandwidth, large sizes;
// and the prober that is too busy to measure latency (RdmadProberOverloaded).
// A pair's figures are not judged while its target was host-unreachable, its
// prober isolated or not scraped, or the pair itself down (downWindow), at
// any time in the window: those failures belong to the reachability alerts.
// Nor while a NIC-errors verdict names either end's port (RdmadNicErrors).
local u = import '../lib/util.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    local w = c.windowShort,
    local by = function(l) u.by(c, l),
    local troubled = |||
      unless on (%(p)s) max_over_time(peer:rdmad_mesh_probers_down:ratio[%(w)s]) >= %(s)s
      unless on (%(i)s) max_over_time(source:rdmad_mesh_peers_down:ratio[%(w)s]) >= %(s)s
      unless on (%(i)s) min_over_time(%(up)s[%(w)s]) == 0
      unless on (%(ip)s) max_over_time(source_peer:rdmad_mesh_pair_explained:bool[%(w)s])
      unless on (%(i)s) max_over_time(instance:rdmad_verdict_nic_errors:bool[%(w)s])
      unless on (%(p)s) max_over_time(peer:rdmad_verdict_nic_errors:bool[%(w)s])
    ||| % { ip: by(['instance', 'peer']), p: by(['peer']), i: by(['instance']), w: w, s: u.num(c.hostUnreachableShare), up: u.sel(c, 'up') },
    // the prober took too many of its rounds under local pressure at any
    // time in the window: its pairs' latency is its own (RdmadProberOverloaded)
    local overloaded = 'unless on (%s) max_over_time(source:rdmad_mesh_rounds_pressured:ratio[%s]) > %s\n'
                       % [by(['instance']), w, u.num(c.proberOverloadedShare)],
    local pairDown = 'unless on (%s) max_over_time(source_peer:rdmad_mesh_peer_down:sustained[%s])\n'
                     % [by(['instance', 'peer']), w],
    local sizeFailed = function(m) 'sum by (%s) (increase(%s[%s]))'
                                    % [by(['instance', 'peer']), u.sel(c, 'rdmad_mesh_size_rounds_failed_total', m), w],

    groups+: [{
      name: 'rdmad-quality',
      rules: [
        {
          alert: 'RdmadPairLoss',
          expr: u.withPlaces(c, 'source_peer:rdmad_mesh_rounds_failed:ratio > %s\n' % u.num(c.lossThreshold) + pairDown + troubled),
          // its rate window, not its `for`, sets its pace: at pairFor
          // (15 s, fast profile) 1 % of rounds lost at random raised it
          // on a healthy fleet (verdict-sim --healthy)
          'for': c.forShort,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'The mesh rounds of a pair fail.',
            description: |||
              Over %(w)s, {{ $value | humanizePercentage }} of the mesh rounds from {{ $labels.source }} to {{ $labels.peer }} failed while the pair stayed up: loss on that path (RC retransmissions running out show as timeouts). Check which results (rdmad_mesh_rounds_total), which paths (rdmad_mesh_path_rounds_failed_total; with compact series rdmadctl mesh on the prober) and which sizes fail, then the links of the path.
            ||| % { w: w },
            runbook_url: u.runbook(c, 'rdmadpairloss'),
          },
        },
        {
          alert: 'RdmadLatencySLOBreached',
          expr: 'source_peer:rdmad_mesh_round_duration_seconds:p99 > %s\n' % u.num(c.latencySLOSeconds) + overloaded + troubled,
          'for': c.forLong,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'The p99 latency of a pair is above its SLO.',
            description: |||
              The 99th percentile of verified rounds from {{ $labels.source }} to {{ $labels.peer }} over %(w)s is {{ $value | humanizeDuration }}, above %(slo)ss. A tail of about 0.5 s or more is RC retransmission: light loss on the path. Compare with the target's other probers (one pair or all of them) and check congestion (PFC, ECN) and errors on the path's links.
            ||| % { w: w, slo: u.num(c.latencySLOSeconds) },
            runbook_url: u.runbook(c, 'rdmadlatencyslobreached'),
          },
        },
        {
          alert: 'RdmadProberOverloaded',
          expr: 'source:rdmad_mesh_rounds_pressured:ratio > %s' % u.num(c.proberOverloadedShare),
          'for': c.forShort,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'A prober takes its rounds under local pressure.',
            description: |||
              Over %(w)s, {{ $value | humanizePercentage }} of the mesh rounds of {{ $labels.source }} ({{ $labels.instance }}) were taken while its own host delayed them (rdmad's loop late by more than [mesh] prober_lag_max, or it or the host waiting for a CPU more than prober_wait_max of the round): the host is busy, not the network. Those rounds' latency is kept out of its pairs' figures, and its pairs raise no RdmadLatencySLOBreached meanwhile. On it: what else runs (`top`, /proc/pressure/cpu), rdmad_mesh_loop_lag_seconds and rdmad_mesh_round_run_delay_seconds_total, `journalctl -u rdmad -g 'under local pressure'`.
            ||| % { w: w },
            runbook_url: u.runbook(c, 'rdmadproberoverloaded'),
          },
        },
        {
          alert: 'RdmadBandwidthLow',
          expr: |||
            source_peer:rdmad_mesh_bandwidth_port_rate:ratio < %s
            and on (%s) source_peer:rdmad_mesh_peer_up:max == 1
          ||| % [u.num(c.bandwidthMinShare), by(['instance', 'peer'])],
          'for': c.forShort,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'The bandwidth of a pair is low for its RDMA port rate.',
            description: |||
              The last bandwidth sample from {{ $labels.source }} to {{ $labels.peer }} reached {{ $value | humanizePercentage }} of the prober's RDMA port rate, below %(m)s. Check the link speed on both ends (`rdma link`, `ethtool`), the path's congestion and what else loads the link.
            ||| % { m: u.num(c.bandwidthMinShare) },
            runbook_url: u.runbook(c, 'rdmadbandwidthlow'),
          },
        },
        {
          alert: 'RdmadLargeSizesFail',
          expr: '(%s >= %s\nand on (%s) %s == 0)\n* on (%s) group_left (source) instance:rdmad_mesh_source:info\n'
                % [sizeFailed('size!="%s"' % c.smallSize), u.num(c.largeSizesMinFailures),
                   by(['instance', 'peer']), sizeFailed('size="%s"' % c.smallSize), by(['instance'])]
                + pairDown + troubled,
          'for': c.forShort,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Only the large rounds of a pair fail.',
            description: |||
              {{ $value }} rounds over %(s)s bytes from {{ $labels.source }} to {{ $labels.peer }} failed in %(w)s and none of %(s)s bytes: loss of large packets only (an MTU mismatch on a hop, a link that drops packets over 1 KB). Check rdmad_mesh_size_rounds_failed_total by size and the MTU of every hop.
            ||| % { s: c.smallSize, w: w },
            runbook_url: u.runbook(c, 'rdmadlargesizesfail'),
          },
        },
      ],
    }],
  },
}
