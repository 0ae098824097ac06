// The rdmad monitoring mixin (monitoring-mixins layout): recording rules,
// alerts and Grafana dashboards built from one _config (config.libsonnet).
(import 'config.libsonnet') +
(import 'rules/mesh.libsonnet') +
(import 'rules/place.libsonnet') +
(import 'rules/verdict.libsonnet') +
(import 'rules/gray.libsonnet') +
(import 'rules/ports.libsonnet') +
(import 'alerts/verdicts.libsonnet') +
(import 'alerts/gray.libsonnet') +
(import 'alerts/reachability.libsonnet') +
(import 'alerts/quality.libsonnet') +
(import 'alerts/health.libsonnet') +
(import 'alerts/inhibit.libsonnet') +
(import 'alerts/integrity.libsonnet') +
(import 'alerts/daemon.libsonnet') +
(import 'alerts/mesh-config.libsonnet') +
(import 'alerts/ports.libsonnet') +
(import 'dashboards/fabric.libsonnet') +
(import 'dashboards/host.libsonnet')
