// Entry point of monitoring/build: the mixin with `config` merged into its
// _config, as every document the build writes (file name: JSON).
//   jsonnet -m DIR --tla-code config=OBJECT render.jsonnet
function(config={})
  local mixin = import 'mixin.libsonnet';
  // a misspelt knob would be ignored silently: refuse it
  local unknown = [k for k in std.objectFields(config) if !std.objectHasAll(mixin._config, k)];
  assert unknown == [] : 'unknown _config keys: %s (see monitoring/config.libsonnet)' % std.join(', ', unknown);
  local m = mixin + { _config+:: config };
  // block texts end with a newline; annotations should not
  local trim(g) = g {
    rules: [r + (if std.objectHas(r, 'annotations')
                 then { annotations: std.mapWithKey(function(k, v) std.rstripChars(v, '\n'), r.annotations) }
                 else {})
            for r in g.rules],
  };
  // sharded: the global Prometheus' groups, or every other one (a shard's)
  local pick(doc, names, global) = { groups: [trim(g) for g in doc.groups
                                              if std.member(names, g.name) == global] };
  local all(doc) = { groups: [trim(g) for g in doc.groups] };
  local c = m._config;
  local rules = m.prometheusRules, alerts = m.prometheusAlerts;
  // one evaluation for every document, written as JSON (jsonnet's own,
  // fast); monitoring/build turns the rule files into YAML
  {
    'rdmad-rules.json': all(rules),
    'rdmad-alerts.json': all(alerts),
    'rdmad-inhibit.json': m.alertmanagerInhibitRules,
    'sharded/rdmad-shard-rules.json': pick(rules, c.globalRuleGroups, false),
    'sharded/rdmad-shard-alerts.json': pick(alerts, c.globalAlertGroups, false),
    'sharded/rdmad-global-rules.json': pick(rules, c.globalRuleGroups, true),
    'sharded/rdmad-global-alerts.json': pick(alerts, c.globalAlertGroups, true),
  } + { ['dashboards/' + k]: m.grafanaDashboards[k] for k in std.objectFields(m.grafanaDashboards) }
