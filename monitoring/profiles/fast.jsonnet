// The fast profile: verdicts in seconds (docs/fleet.md, "Fast").  Run
// every Prometheus of the layout with a 5 s scrape_interval and
// evaluation_interval, federation included; monitoring/build renders the
// mixin with this into OUTDIR/fast/ (on top of the build's own
// configuration).  Three times the samples a second of the default
// profile's 15 s, the same series.
{
  // a verdict holds at one evaluation more: at 5 s a fault's onset and
  // healing, when the pairs' rates and the verdicts that explain them
  // are a step apart, made false link verdicts at 0 s
  verdictFor: '5s',
  // the host alert: the verdict that explains it comes back to its
  // shard 10-15 s after the fault (a federation scrape each way); 30 s
  // outwaits it
  forShort: '30s',
  // RdmadPairUnreachable: the Alertmanager holds it back under a verdict
  // (rdmad-inhibit.yaml); four evaluations, a noisy down seldom lasts two
  pairFor: '15s',
  // below forShort (config.libsonnet)
  downWindow: '20s',
  // two evaluations
  verdictRecent: '10s',
  // the link verdict counts a pair down at two evaluations in a row:
  // at 2 % of rounds lost at random, two noisy downs in a row on pairs
  // of three ToR pairs at once made it hold for one evaluation
  linkVerdictFor: '10s',
}
