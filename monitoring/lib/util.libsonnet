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
  // a pair alert's expression (labels instance, peer) with the places of
  // both ends where the inventory has them, for the Alertmanager's
  // inhibition rules (alerts/inhibit.libsonnet); as it is where it has none
  withPlaces(c, e):: local by = self.by, placed = self.placed(c); |||
    (
      (%(e)s)
      %(placed)s)
    or on (%(p)s)
    (%(e)s)
  ||| % { e: e, placed: std.strReplace(placed, '\n', '\n  '), p: by(c, ['instance', 'peer']) },
  // a verdict's expression with its part named as a prober's end too: a
  // ToR's (RdmadTor*, RdmadFabricLink*) peer_tor as source_tor, a host's
  // or a NIC's (RdmadHost*, RdmadNic*) peer_host as source_host.  An
  // inhibition rule matches a label with the same label only, so this is
  // how a verdict holds back the pair alerts out of its part as well as
  // those into it (alerts/inhibit.libsonnet)
  sourceCopy(name, e)::
    local copy = function(to, from) 'label_replace(\n  %s,\n  "%s", "$1", "%s", "(.+)"\n)' % [std.rstripChars(e, '\n'), to, from];
    if std.startsWith(name, 'RdmadTor') || std.startsWith(name, 'RdmadFabricLink') then copy('source_tor', 'peer_tor')
    else if std.startsWith(name, 'RdmadHost') || std.startsWith(name, 'RdmadNic') then copy('source_host', 'peer_host')
    else e,
}
