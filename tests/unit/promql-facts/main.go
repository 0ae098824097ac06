// SPDX-License-Identifier: BSD-2-Clause
// promql-facts - what tests/unit/lint-mixin needs to know of PromQL
// expressions, from a real parser (Debian's metricsql, a PromQL parser):
// reads a JSON array of expressions on stdin, writes a JSON array with,
// for each: its parse error, the label matchers of every series selector,
// and every range selector with its window and the function it is the
// argument of ("" if none).
//   promql-facts < exprs.json
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/VictoriaMetrics/metricsql"
)

type matcher struct {
	Name  string `json:"name"`
	Op    string `json:"op"`
	Value string `json:"value"`
}

type rangeSel struct {
	Window string `json:"window"`
	// the window in seconds
	Seconds float64 `json:"seconds"`
	// the function it is an argument of, "" if none
	Func string `json:"func"`
	// the selector in it (a metric name and matchers), nil for a subquery
	Selector []matcher `json:"selector"`
}

type facts struct {
	Error     string      `json:"error"`
	Selectors [][]matcher `json:"selectors"`
	Ranges    []rangeSel  `json:"ranges"`
	// series selectors that are no range selector's and not inside one
	Instant [][]matcher `json:"instant"`
}

func matchers(me *metricsql.MetricExpr) []matcher {
	out := []matcher{}
	for _, lf := range me.LabelFilters {
		op := "="
		switch {
		case lf.IsRegexp && lf.IsNegative:
			op = "!~"
		case lf.IsRegexp:
			op = "=~"
		case lf.IsNegative:
			op = "!="
		}
		out = append(out, matcher{lf.Label, op, lf.Value})
	}
	return out
}

// walk visits e; fn is the function e is an argument of ("" if none)
func walk(e metricsql.Expr, fn string, inRange bool, f *facts) {
	switch x := e.(type) {
	case *metricsql.MetricExpr:
		m := matchers(x)
		f.Selectors = append(f.Selectors, m)
		if !inRange {
			f.Instant = append(f.Instant, m)
		}
	case *metricsql.RollupExpr:
		if x.Window != nil && !x.ForSubquery() {
			r := rangeSel{Window: string(x.Window.AppendString(nil)),
				Seconds: float64(x.Window.Duration(0)) / 1000, Func: fn}
			if me, ok := x.Expr.(*metricsql.MetricExpr); ok {
				r.Selector = matchers(me)
			}
			f.Ranges = append(f.Ranges, r)
			walk(x.Expr, "", true, f)
			return
		}
		walk(x.Expr, "", inRange, f)
	case *metricsql.FuncExpr:
		for _, a := range x.Args {
			walk(a, x.Name, inRange, f)
		}
	case *metricsql.AggrFuncExpr:
		for _, a := range x.Args {
			walk(a, "", inRange, f)
		}
	case *metricsql.BinaryOpExpr:
		walk(x.Left, "", inRange, f)
		walk(x.Right, "", inRange, f)
	}
}

func main() {
	var exprs []string
	if err := json.NewDecoder(os.Stdin).Decode(&exprs); err != nil {
		fmt.Fprintf(os.Stderr, "promql-facts: stdin is no JSON array of strings: %v\n", err)
		os.Exit(1)
	}
	out := make([]facts, 0, len(exprs))
	for _, s := range exprs {
		f := facts{Selectors: [][]matcher{}, Ranges: []rangeSel{}, Instant: [][]matcher{}}
		e, err := metricsql.Parse(s)
		if err != nil {
			f.Error = err.Error()
		} else {
			walk(e, "", false, &f)
		}
		out = append(out, f)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintf(os.Stderr, "promql-facts: %v\n", err)
		os.Exit(1)
	}
}
