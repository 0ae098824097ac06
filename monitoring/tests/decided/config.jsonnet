// The alerts on what the agents decided (alerts/health.libsonnet) and
// their inhibition rules, on: tests/unit/check-mixin renders the mixin
// with this and runs the *.yaml beside it, and checks the inhibition
// rules it renders.
{
  decidedAlerts: true,
}
