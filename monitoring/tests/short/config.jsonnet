// The short windows of the fabric test (tests/fabric): a mesh round a
// second, scraped every 2 s; TCG guests are slow, so no latency or
// bandwidth alert.  tests/unit/check-mixin renders the mixin with this and
// runs the *.yaml beside it.  The fabric test waits a window and forLong
// twice: 30 s holds 15 scrapes and 30 rounds per pair.
{
  windowShort: '30s',
  downWindow: '10s',
  forShort: '15s',
  forLong: '20s',
  latencySLOSeconds: 5,
  bandwidthMinShare: 0.001,
}
