// rdmad itself: scraped, up, listening, its configuration applied.
local u = import '../lib/util.libsonnet';

{
  prometheusAlerts+:: {
    local c = $._config,
    groups+: [{
      name: 'rdmad-daemon',
      rules: [
        {
          alert: 'RdmadDown',
          expr: '%s == 0' % u.sel(c, 'up'),
          'for': c.forShort,
          labels: { severity: 'critical' },
          annotations: {
            summary: 'An rdmad does not answer scrapes.',
            description: |||
              Prometheus cannot scrape rdmad on {{ $labels.instance }} (%(s)s): the daemon is stopped, the host is down, or its management network is. `systemctl status rdmad` and `journalctl -u rdmad` on the host; if the host is down its peers raise RdmadHostUnreachable too.
            ||| % { s: c.selector },
            runbook_url: u.runbook(c, 'rdmaddown-rdmadabsent'),
          },
        },
        {
          alert: 'RdmadAbsent',
          expr: 'absent(%s)' % u.sel(c, 'up'),
          'for': c.forShort,
          labels: { severity: 'critical' },
          annotations: {
            summary: 'No rdmad is scraped (%s).' % c.selector,
            description: |||
              Prometheus has no scrape target matching %(s)s: the scrape configuration or its service discovery lost every rdmad. Check the targets page of Prometheus and the file_sd files.{{ with query "count by (job) (up)" | sortByLabel "job" }} The jobs it scrapes: {{ range $i, $j := . }}{{ if $i }}, {{ end }}{{ $j.Labels.job }}{{ end }}.{{ end }}
            ||| % { s: c.selector },
            runbook_url: u.runbook(c, 'rdmaddown-rdmadabsent'),
          },
        },
        {
          alert: 'RdmadListenerDown',
          expr: '%s == 0' % u.sel(c, 'rdmad_listener_up'),
          'for': c.forShort,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'An rdmad cannot listen on one of its addresses.',
            description: |||
              rdmad on {{ $labels.instance }} is not listening on {{ $labels.address }}: the address's RDMA device went away and rdmad is waiting for it (`rdma link`, `journalctl -u rdmad -g listener`).
            |||,
            runbook_url: u.runbook(c, 'rdmadlistenerdown'),
          },
        },
        {
          alert: 'RdmadConfigReloadFailed',
          expr: '%s == 0' % u.sel(c, 'rdmad_config_last_reload_successful'),
          'for': c.forShort,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'An rdmad refused its last configuration reload.',
            description: |||
              The last reload of rdmad on {{ $labels.instance }} was refused: it still runs the configuration it had before (`rdmad_config_last_reload_success_timestamp_seconds` says since when). `journalctl -u rdmad -g "reload refused"` names the file, line and reason; `rdmad --check-config`, fix, reload again.
            |||,
            runbook_url: u.runbook(c, 'rdmadconfigreloadfailed'),
          },
        },
      ],
    }],
  },
}
