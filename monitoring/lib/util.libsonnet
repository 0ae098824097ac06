// Expression helpers shared by the rules, the alerts and the dashboards.
{
  // metric{selector[, extra]}
  sel(c, metric, extra=''):: metric + '{' + c.selector + (if extra == '' then '' else ', ' + extra) + '}',
  // "job, instance, peer": the fabric labels, then `labels`
  by(c, labels=[]):: std.join(', ', c.fabricLabels + labels),
  // an alert's runbook link: the pattern's %s is a heading of
  // docs/troubleshooting.md
  runbook(c, anchor):: std.strReplace(c.runbookURLPattern, '%s', anchor),
  // a threshold as PromQL and people write it (0.05, not 0.050000000000000003)
  num(x):: '%g' % x,
  // appended to a pair's expression: the places of both ends, the peer's
  // (peer_host, peer_tor, rail, why) and the prober's (source_host,
  // source_tor), from rules/place.libsonnet's info series
  placed(c):: local by = self.by; |||
    * on (%(p)s) group_left (peer_host, peer_tor, rail, why) source_peer:rdmad_mesh_place:info
    * on (%(i)s) group_left (source_host, source_tor) instance:rdmad_mesh_place:info
  ||| % { p: by(c, ['instance', 'peer']), i: by(c, ['instance']) },
}
