# SPDX-License-Identifier: BSD-2-Clause
# promseries.py - promtool's expanding notation for input series, shared by
# monitoring/tests/gen-verdicts and tests/bench/verdict-sim.


def fmt(v):
    """A sample value as promtool reads it (integers without a point)."""
    return '%d' % v if v == int(v) else '%g' % v


def compress(vals):
    """Values as expanding notation: runs of a constant step."""
    out, i = [], 0
    while i < len(vals):
        j = i + 1
        if j < len(vals):
            d = vals[j] - vals[i]
            while j + 1 < len(vals) and vals[j + 1] - vals[j] == d:
                j += 1
            out.append('%s%+dx%d' % (fmt(vals[i]), d, j - i))
            i = j + 1
        else:
            out.append(fmt(vals[i]))
            i = j
    return ' '.join(out)


def compress_gaps(vals):
    """Values with gaps (None: no sample) as expanding notation: a gap after
    a sample is a staleness marker, as Prometheus writes for a series that
    left a scrape or a rule's result; then '_' (no sample) to the next one."""
    out, i = [], 0
    while i < len(vals):
        j = i
        while j < len(vals) and (vals[j] is None) == (vals[i] is None):
            j += 1
        if vals[i] is None:
            n = j - i
            if i:
                out.append('stale')
                n -= 1
            if n:
                out.append('_x%d' % n if n > 1 else '_')
        else:
            out.append(compress(vals[i:j]))
        i = j
    return ' '.join(out)
