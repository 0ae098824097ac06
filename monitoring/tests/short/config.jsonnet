// The short windows of the fabric test (tests/fabric): a mesh round a
// second, scraped every 2 s; TCG guests are slow, so no latency or
// bandwidth alert.  tests/unit/check-mixin renders the mixin with this and
// runs the *.yaml beside it.
{
  windowShort: '1m',
  downWindow: '10s',
  forShort: '15s',
  forLong: '30s',
  latencySLOSeconds: 5,
  bandwidthMinShare: 0.001,
}
