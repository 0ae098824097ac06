// The short windows of the fabric test (tests/fabric): a mesh round a
// second, scraped every 2 s; TCG guests are slow, so no latency or
// bandwidth alert (a sample under 1e-5 of rxe's 312.5 MB/s, 3 KB/s, moved
// next to nothing; 1e-3 fired in CI after a cable came back: a guest
// starved by its neighbours took a 50 ms sample at under 312 KB/s), and
// no RdmadProberOverloaded: a healthy TCG fabric took 10-30 % of its
// rounds under local pressure while Prometheus ran in its guests (the
// guests starve each other), so a share above 1, which no ratio reaches.
// t-79, which judges those two alerts, sets its own: a 100 ms SLO and a
// 30 % share (its clean probers flag 1-11 %).
// tests/unit/check-mixin renders the mixin with this and
// runs the *.yaml beside it.  The fabric test waits a window and forLong
// twice: 30 s holds 15 scrapes and 30 rounds per pair.
{
  windowShort: '30s',
  downWindow: '10s',
  forShort: '15s',
  pairFor: '15s',
  forLong: '20s',
  latencySLOSeconds: 5,
  bandwidthMinShare: 0.00001,
  proberOverloadedShare: 1,
}
