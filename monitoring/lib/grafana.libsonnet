// Plain Grafana JSON (schemaVersion 39), no grafonnet: the few shapes the
// dashboards use.  Every panel queries ${datasource}.
{
  ds:: { type: 'prometheus', uid: '${datasource}' },

  target(expr, legend='', instant=false, format='time_series', ref='A'):: {
    datasource: $.ds,
    expr: expr,
    legendFormat: legend,
    refId: ref,
    instant: instant,
    range: !instant,
    format: format,
  },

  panel(type, title, description, targets, w, h):: {
    type: type,
    title: title,
    description: description,
    datasource: $.ds,
    targets: [targets[i] { refId: std.char(65 + i) } for i in std.range(0, std.length(targets) - 1)],
    gridPos: { w: w, h: h },
  },

  timeseries(title, description, targets, unit, w=12, h=8):: $.panel('timeseries', title, description, targets, w, h) {
    fieldConfig: { defaults: { unit: unit }, overrides: [] },
    options: { legend: { displayMode: 'table', placement: 'right', calcs: ['lastNotNull', 'max'] } },
  },

  steps(list):: { mode: 'absolute', steps: [{ color: s[0], value: s[1] } for s in list] },

  // a table turned into a matrix: rows `row`, columns `col`, cells coloured
  matrix(title, description, expr, unit, steps, row='source', col='peer', w=12, h=10)::
    $.panel('table', title, description, [$.target(expr, instant=true, format='table')], w, h) {
      transformations: [{
        id: 'groupingToMatrix',
        options: { rowField: row, columnField: col, valueField: 'Value', emptyValue: 'null' },
      }],
      fieldConfig: {
        defaults: {
          unit: unit,
          thresholds: $.steps(steps),
          custom: { align: 'center', cellOptions: { type: 'color-background' } },
        },
        overrides: [],
      },
    },

  stat(title, description, targets, unit, steps, w=6, h=5):: $.panel('stat', title, description, targets, w, h) {
    fieldConfig: { defaults: { unit: unit, thresholds: $.steps(steps) }, overrides: [] },
    options: { colorMode: 'background', reduceOptions: { calcs: ['lastNotNull'] } },
  },

  heatmap(title, description, targets, w=12, h=8):: $.panel('heatmap', title, description, targets, w, h) {
    options: { calculate: false, yAxis: { unit: 's' }, cellGap: 1 },
  },

  // lay the panels out left to right, wrapping at 24 columns; ids 1..n
  layout(panels)::
    local step(acc, p) =
      local wrap = acc.x + p.gridPos.w > 24;
      local x = if wrap then 0 else acc.x;
      local y = if wrap then acc.y + acc.rowh else acc.y;
      local rowh = if wrap then p.gridPos.h else std.max(acc.rowh, p.gridPos.h);
      { x: x + p.gridPos.w, y: y, rowh: rowh,
        out: acc.out + [p { id: std.length(acc.out) + 1, gridPos+: { x: x, y: y } }] };
    std.foldl(step, panels, { x: 0, y: 0, rowh: 0, out: [] }).out,

  datasourceVar:: {
    name: 'datasource', label: 'Data source', type: 'datasource', query: 'prometheus',
    current: {}, hide: 0, refresh: 1,
  },

  // a variable over label NAME, as mixtool's lint wants it (and the
  // dashboards of other mixins have it): labelled by its name, several
  // values or All, All being every value (.+), reloaded with the time range
  queryVar(name, query):: {
    name: name, label: name, type: 'query', datasource: $.ds,
    query: { query: query, refId: name }, definition: query,
    refresh: 2, sort: 1, multi: true, includeAll: true, allValue: '.+',
    current: {}, hide: 0,
  },

  dashboard(c, uid, title, description, vars, panels):: {
    uid: c.dashboardUidPrefix + uid,
    title: title,
    description: description,
    tags: c.dashboardTags,
    editable: true,
    graphTooltip: 1,
    refresh: c.dashboardRefresh,
    time: { from: c.dashboardTimeFrom, to: 'now' },
    timezone: '',
    schemaVersion: 39,
    version: 1,
    templating: { list: [$.datasourceVar] + vars },
    annotations: { list: [] },
    links: [],
    panels: $.layout(panels),
  },
}
