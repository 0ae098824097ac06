// "rdmad host": one rdmad, its peers, rounds, ports and clients.
local g = import '../lib/grafana.libsonnet';

{
  grafanaDashboards+:: {
    local c = $._config,
    local s = 'job=~"$job", instance=~"$instance"',
    'rdmad-host.json': g.dashboard(c, 'host', 'rdmad host',
      'One rdmad: the peers it probes, its rounds by result and duration, its ports, connections and sessions.',
      [
        g.queryVar('job', 'label_values(rdmad_build_info, job)'),
        g.queryVar('instance', 'label_values(rdmad_build_info{job=~"$job"}, instance)'),
      ],
      [
        g.stat('Uptime', 'Since rdmad started.', [g.target('time() - rdmad_start_time_seconds{%s}' % s, '{{instance}}')],
               's', [['green', null]]),
        g.stat('Peers up', 'Mesh peers up / in the targets file.',
               [g.target('sum(rdmad_mesh_peer_up{%s})' % s, 'up'), g.target('sum(rdmad_mesh_peers{%s})' % s, 'peers')],
               'none', [['green', null]]),
        g.stat('Listeners up', 'rdmad_listener_up: 1 per [server] listen address listening.',
               [g.target('sum(rdmad_listener_up{%s})' % s, 'up')], 'none', [['red', null], ['green', 1]]),
        g.stat('Active connections', 'Connections open now, every protocol.',
               [g.target('sum(rdmad_connections_active{%s})' % s, 'active')], 'none', [['green', null]]),
        g.timeseries('Peers', '1 while at least one path to the peer is up; paths up.',
                     [g.target('rdmad_mesh_peer_up{%s}' % s, '{{peer}} up'),
                      g.target('rdmad_mesh_peer_paths_up{%s}' % s, '{{peer}} paths')], 'none'),
        // compact series ([mesh] peer_series): every class and the
        // histogram by rail (the peers' "failed" is their sum); full: by peer
        g.timeseries('Rounds by result', 'Mesh rounds per second, all peers, by result.',
                     [g.target(('sum by (result) (rate(rdmad_mesh_rail_rounds_total{%s}[$__rate_interval]))\nor\n' % s) +
                               ('sum by (result) (rate(rdmad_mesh_rounds_total{%s, result!="failed"}[$__rate_interval]))' % s), '{{result}}')], 'ops'),
        g.heatmap('Round duration', 'Verified rounds, all peers: rdmad_mesh_round_duration_seconds (compact series: rdmad_mesh_rail_round_duration_seconds).',
                  [g.target(('sum by (le) (rate(rdmad_mesh_round_duration_seconds_bucket{%s}[$__rate_interval]))\nor\n' % s) +
                            ('sum by (le) (rate(rdmad_mesh_rail_round_duration_seconds_bucket{%s}[$__rate_interval]))' % s),
                            '{{le}}', format='heatmap')]),
        g.timeseries('Failed rounds by rail', 'Rounds per second that did not end ok, by rail and result (full series have no rail: every peer together, rail "all").',
                     [g.target(('sum by (rail, result) (rate(rdmad_mesh_rail_rounds_total{%s, result!="ok"}[$__rate_interval]))\nor\n' % s) +
                               ('label_replace(sum by (result) (rate(rdmad_mesh_rounds_total{%s, result!="ok"}[$__rate_interval])), "rail", "all", "", "")' % s),
                               'rail {{rail}} {{result}}')], 'ops'),
        g.timeseries('p99 per peer', 'p99 of verified rounds per peer over %s.' % c.windowShort,
                     [g.target('source_peer:rdmad_mesh_round_duration_seconds:p99{%s}' % s, '{{peer}}')], 's'),
        g.timeseries('Loss per peer', 'Failed rounds / rounds per peer over %s.' % c.windowShort,
                     [g.target('source_peer:rdmad_mesh_rounds_failed:ratio{%s}' % s, '{{peer}}')], 'percentunit'),
        g.timeseries('Mesh connects and downs', 'Mesh sessions established, and paths that went down.',
                     [g.target('sum by (peer) (rate(rdmad_mesh_connects_total{%s}[$__rate_interval]))' % s, '{{peer}} connects'),
                      g.target('sum by (peer) (rate(rdmad_mesh_peer_downs_total{%s}[$__rate_interval]))' % s, '{{peer}} downs')], 'ops'),
        g.timeseries('RDMA ports', "The port's link rate (rdmad_port_rate_bytes_per_second).",
                     [g.target('rdmad_port_rate_bytes_per_second{%s}' % s, '{{device}}/{{port}}')], 'Bps'),
        g.timeseries('Connections', 'Open connections and accepts per second, by protocol.',
                     [g.target('sum by (proto) (rdmad_connections_active{%s})' % s, '{{proto}} open'),
                      g.target('sum by (proto) (rate(rdmad_connections_accepted_total{%s}[$__rate_interval]))' % s, '{{proto}} accepted/s')], 'none'),
        g.timeseries('Sessions by result', 'Closed sessions per second by protocol and result (mesh sessions of peers included).',
                     [g.target('sum by (proto, result) (rate(rdmad_sessions_total{%s}[$__rate_interval]))' % s, '{{proto}} {{result}}')], 'ops'),
        g.timeseries('Rejects', 'Connection requests refused, by reason.',
                     [g.target('sum by (reason) (rate(rdmad_rejects_total{%s}[$__rate_interval]))' % s, '{{reason}}')], 'ops'),
      ]),
  },
}
