#!/usr/bin/python3
"""Plot dcn-lb-compare CSV output: FCT CDFs and summary bar charts.

dcn-lb-compare --csv=PREFIX writes PREFIX-<lb>.csv (one line per flow) and
PREFIX-summary.csv (one line per load balancer).  This script reads them and
writes PNG (or PDF/SVG, by --format) files next to PREFIX, or into --out.

Examples:
  ./build/dcn-lb-compare --csv=out/perm
  python3 tools/plot.py out/perm                  # out/perm-fct-cdf.png, out/perm-bars.png
  python3 tools/plot.py out/perm --metric slowdown --log
  python3 tools/plot.py out/perm --bars max_fct_us,p99_fct_us,drops --format pdf
  python3 tools/plot.py out/perm --png-prefix figs/run1   # figs/run1-fct-cdf.png, figs/run1-bars.png

For programs (e.g. the flagship's --plot=<prefix>): the exit status is 0 when every
file was written; stdout lists the files, one per line; errors are one line on
stderr starting with "plot.py: error:".
"""

import argparse
import csv
import glob
import os
import sys


PRETTY = {
    "mean_fct_us": "mean FCT (us)",
    "p50_fct_us": "median FCT (us)",
    "p99_fct_us": "p99 FCT (us)",
    "max_fct_us": "max FCT (us)",
    "completion_us": "completion time (us)",
    "mean_slowdown": "mean slowdown",
    "p99_slowdown": "p99 slowdown",
}


def read_flows(path, metric):
    vals = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("completed", "1") != "1":
                continue
            v = row.get(metric, "")
            if v != "":
                vals.append(float(v))
    return vals


def read_summary(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("prefix", help="the --csv prefix given to dcn-lb-compare")
    p.add_argument(
        "--metric",
        default="fct_us",
        choices=["fct_us", "slowdown", "ideal_fct_us"],
        help="per-flow column for the CDF plot (default fct_us)",
    )
    p.add_argument(
        "--bars",
        default="mean_fct_us,p99_fct_us,max_fct_us",
        help="comma-separated summary columns for the bar chart "
        "(default mean_fct_us,p99_fct_us,max_fct_us; also retransmissions, "
        "timeouts, drops, marks, fabric_trims, ...)",
    )
    p.add_argument("--log", action="store_true", help="log-scale x axis of the CDF")
    p.add_argument("--out", default=None, help="output directory (default: next to PREFIX)")
    p.add_argument(
        "--png-prefix",
        default=None,
        help="write <P>-<metric>-cdf.<fmt> and <P>-bars.<fmt> (overrides --out and the "
        "CSV prefix's name)",
    )
    p.add_argument("--format", default="png", choices=["png", "pdf", "svg"])
    p.add_argument("--title", default=None, help="figure title (default: PREFIX basename)")
    a = p.parse_args(argv)

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot.py: error: matplotlib not found for %s; install python3-matplotlib and run with "
                 "/usr/bin/python3 (Debian's interpreter)" % sys.executable)

    base = os.path.basename(a.prefix)
    outdir = a.out if a.out else (os.path.dirname(a.prefix) or ".")
    if a.png_prefix:
        outdir = os.path.dirname(a.png_prefix) or "."
        base = os.path.basename(a.png_prefix)
    os.makedirs(outdir, exist_ok=True)
    title = a.title or os.path.basename(a.prefix)

    flow_files = sorted(
        f for f in glob.glob(a.prefix + "-*.csv") if not f.endswith("-summary.csv")
    )
    if not flow_files:
        sys.exit("plot.py: error: no per-flow files %s-<lb>.csv found" % a.prefix)
    written = []

    fig, ax = plt.subplots(figsize=(6, 4))
    for f in flow_files:
        lb = f[len(a.prefix) + 1 : -4]
        vals = sorted(read_flows(f, a.metric))
        if not vals:
            continue
        n = len(vals)
        ax.step(vals, [(i + 1) / n for i in range(n)], where="post", label="%s (n=%d)" % (lb, n))
    ax.set_xlabel({"fct_us": "FCT (us)", "slowdown": "slowdown (FCT / ideal)",
                   "ideal_fct_us": "ideal FCT (us)"}[a.metric])
    ax.set_ylabel("CDF")
    if a.log:
        ax.set_xscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend()
    ax.set_title(title)
    out = os.path.join(outdir, "%s-%s-cdf.%s" % (base, a.metric.replace("_us", ""), a.format))
    fig.tight_layout()
    fig.savefig(out)
    written.append(out)
    plt.close(fig)

    summary = a.prefix + "-summary.csv"
    if os.path.exists(summary):
        rows = read_summary(summary)
        cols = [c for c in a.bars.split(",") if c]
        missing = [c for c in cols if rows and c not in rows[0]]
        if missing:
            sys.exit("plot.py: error: --bars: unknown column(s) %s; available: %s"
                     % (", ".join(missing), ", ".join(rows[0].keys())))
        fig, axes = plt.subplots(1, len(cols), figsize=(3.2 * len(cols), 3.6), squeeze=False)
        for ax, c in zip(axes[0], cols):
            lbs = [r["lb"] for r in rows]
            vals = [float(r[c]) for r in rows]
            ax.bar(lbs, vals, color=["C%d" % i for i in range(len(lbs))])
            ax.set_title(PRETTY.get(c, c))
            ax.grid(True, axis="y", alpha=0.3)
        fig.suptitle(title)
        fig.tight_layout()
        out = os.path.join(outdir, "%s-bars.%s" % (base, a.format))
        fig.savefig(out)
        written.append(out)
        plt.close(fig)

    for w in written:
        print(w)


if __name__ == "__main__":
    main()
