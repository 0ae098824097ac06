// "rdmad fabric": every host's view of every other, one screen.
local g = import '../lib/grafana.libsonnet';

{
  grafanaDashboards+:: {
    local c = $._config,
    local src = 'job=~"$job", instance=~"$instance"',
    local fab = 'job=~"$job"',
    'rdmad-fabric.json': g.dashboard(c, 'fabric', 'rdmad fabric',
      'The mesh of rdmads: each pair source -> peer as one prober sees it, each host as its probers see it.',
      [
        g.queryVar('job', 'label_values(rdmad_build_info, job)'),
        g.queryVar('instance', 'label_values(rdmad_build_info{job=~"$job"}, instance)'),
      ],
      [
        g.matrix('Pair matrix: p99 latency',
                 'Rows: the prober (source), columns: the target (peer); p99 of verified rounds over %s. A bad host is a column, an isolated prober a row.' % c.windowShort,
                 'source_peer:rdmad_mesh_round_duration_seconds:p99{%s}' % src, 's',
                 [['green', null], ['yellow', c.latencySLOSeconds / 2], ['red', c.latencySLOSeconds]]),
        g.matrix('Pair matrix: loss',
                 'Failed rounds / rounds of each pair over %s.' % c.windowShort,
                 'source_peer:rdmad_mesh_rounds_failed:ratio{%s}' % src, 'percentunit',
                 [['green', null], ['yellow', c.lossThreshold / 10], ['red', c.lossThreshold]]),
        g.timeseries('Reachability per host',
                     'The share of its probers that reach each host (1: everyone does).',
                     [g.target('1 - peer:rdmad_mesh_probers_down:ratio{%s}' % fab, '{{peer}}')], 'percentunit', w=8),
        g.timeseries('Peers each prober cannot reach',
                     'The share of its peers each prober cannot reach: high on one prober alone is its own link.',
                     [g.target('source:rdmad_mesh_peers_down:ratio{%s}' % src, '{{source}}')], 'percentunit', w=8),
        g.stat('Rdmad alerts firing', 'Alerts of the rdmad mixin firing now, by name (0: none).',
               [g.target('count by (alertname) (ALERTS{alertname=~"Rdmad.*", alertstate="firing", job=~"$job"}) or on () vector(0)', '{{alertname}}')],
               'none', [['green', null], ['red', 1]], w=8, h=8),
        g.timeseries('Loss to each host', 'Failed rounds / rounds of all probers to each host.',
                     [g.target('peer:rdmad_mesh_rounds_failed:ratio{%s}' % fab, '{{peer}}')], 'percentunit'),
        g.timeseries('Loss from each prober', 'Failed rounds / rounds of each prober to all its peers.',
                     [g.target('source:rdmad_mesh_rounds_failed:ratio{%s}' % src, '{{source}}')], 'percentunit'),
        g.timeseries('Latency p99 per pair', 'p99 of verified rounds, per pair.',
                     [g.target('source_peer:rdmad_mesh_round_duration_seconds:p99{%s}' % src, '{{source}} -> {{peer}}')], 's'),
        g.timeseries('Bandwidth per pair', "Each pair's last bandwidth sample ([mesh] bandwidth_every).",
                     [g.target('source_peer:rdmad_mesh_bandwidth_bytes_per_second:last{%s}' % src, '{{source}} -> {{peer}}')], 'Bps'),
      ]),
  },
}
