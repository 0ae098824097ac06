# SPDX-License-Identifier: BSD-2-Clause
"""benchlib - what the bench tables (bench-table, fabric-table, mesh-table)
read from the raw outputs the benches leave: the "figures" file, rdma-probe
--json documents, perftest client logs, scrape timings; and how they print
a figure, a ratio and a median over rounds.  Every reader returns None (or
an empty result) for a missing or unreadable output, so a table shows
"n/a" where a run failed instead of stopping."""
import json
import statistics


def figures(path):
    """The lines "KEY VALUE" of a figures file, as strings by key."""
    out = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.strip().partition(" ")
            if k:
                out[k] = v.strip()
    return out


def fnum(fig, key, default=0.0):
    """Figure KEY as a float; DEFAULT when absent or not a number."""
    try:
        return float(fig.get(key, default))
    except ValueError:
        return default


def probe(path):
    """An rdma-probe --json document; lines before its "{" (messages on
    stderr kept in the same file) are skipped."""
    try:
        with open(path) as f:
            text = f.read()
        return json.loads(text[text.index("{"):])
    except (OSError, ValueError):
        return None


def probe_op(doc, op):
    """The figures of OP ("read", "write") of the document's first run, or
    None when the run failed or has none."""
    try:
        if doc["exit_code"] != 0:
            return None
        return doc["runs"][0]["ops"][op]
    except (TypeError, KeyError, IndexError):
        return None


def perftest_line(path, first):
    """The result line of a perftest client log: its first field is FIRST."""
    try:
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) >= 5 and p[0] == str(first):
                    return [float(x) for x in p]
    except (OSError, ValueError):
        pass
    return None


def rows(path, ncols=None):
    """The whitespace-split lines of PATH (those of NCOLS fields if given);
    [] when it does not exist."""
    try:
        with open(path) as f:
            return [ln.split() for ln in f
                    if ln.strip() and (ncols is None or len(ln.split()) == ncols)]
    except OSError:
        return []


def scrape_ms(rs, col):
    """Sorted scrape times in ms from column COL (seconds) of rows RS."""
    return sorted(float(r[col]) * 1e3 for r in rs)


def num(v, fmt="%.1f"):
    return fmt % v if v is not None else "n/a"


def ratio(a, b):
    return "%.2fx" % (a / b) if a is not None and b else "n/a"


def med(vals):
    v = [x for x in vals if x is not None]
    return statistics.median(v) if v else None


def cell(vals, fmt="%.1f"):
    """Median (min-max) over the rounds; n/a for rounds without a figure."""
    v = [x for x in vals if x is not None]
    if not v:
        return "n/a"
    s = fmt % statistics.median(v)
    if len(v) > 1:
        s += " (" + fmt % min(v) + "-" + fmt % max(v) + ")"
    if len(v) < len(vals):
        s += " [%d of %d]" % (len(v), len(vals))
    return s


def ratios(a, b):
    return [x / y if x is not None and y else None for x, y in zip(a, b)]


def rcell(a, b):
    return cell(ratios(a, b), "%.2f")
