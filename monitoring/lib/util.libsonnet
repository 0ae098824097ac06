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
}
