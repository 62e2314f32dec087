#!/usr/bin/python3
"""Plot dcn-lb-compare CSV output (FCT CDFs and summary bar charts), spritz-paper
CSV files (bar charts per scheme, one per experiment row label), hermes-paper and
laps-paper CSV files.

dcn-lb-compare --csv=PREFIX writes PREFIX-<lb>.csv (one line per flow) and
PREFIX-summary.csv (one line per load balancer).  This script reads them and
writes PNG (or PDF/SVG, by --format) files next to PREFIX, or into --out.

Examples:
  ./build/dcn-lb-compare --csv=out/perm
  python3 tools/plot.py out/perm                  # out/perm-fct-cdf.png, out/perm-bars.png
  python3 tools/plot.py out/perm --metric slowdown --log
  python3 tools/plot.py out/perm --bars max_fct_us,p99_fct_us,drops --format pdf
  python3 tools/plot.py out/perm --png-prefix figs/run1   # figs/run1-fct-cdf.png, figs/run1-bars.png

hermes-paper --csv=FILE.csv (one row per load balancer, load and run): given the
.csv file itself, the script plots mean FCT, small-flow mean and p99, large-flow
mean and unfinished flows against the load, one line per load balancer (mean over
runs, with error bars of one standard deviation when a point has several runs), into
<FILE>-hermes.<fmt>:
  ./build/hermes-paper --experiment=drop --csv=out/drop.csv
  python3 tools/plot.py out/drop.csv               # out/drop-hermes.png

spritz-paper --csv=FILE writes one line per (experiment, topology, scheme, seed); give
the file itself (ending in .csv): one bar chart per experiment label (motivational,
motivational-solo, incast, incast-bystanders, collectives-ring, ...), schemes on the x axis,
seeds averaged; default columns: monitored_fct_us for motivational, completion_us for
collectives, p99_us,mean_us otherwise (--bars overrides):
  ./build/spritz-paper --experiment=motivational --csv=out/table3.csv
  python3 tools/plot.py out/table3.csv            # out/table3-motivational-bars.png, ...

laps-paper --csv=FILE (one row per scheme): give the file itself, or several runs' files
merged (e.g. a load sweep: awk 'FNR > 1 || NR == 1' a.csv b.csv > sweep.csv); all2all
rows give average and P99 FCT against load per scheme (Figs. 8-17), one figure per
topology and CDF (bars with a single load); allreduce / allscatter rows give bars per
scheme, one bar per --loss (Tables II-IV); rows of several --RngRun are averaged:
  for l in 0.5 0.8; do ./build/laps-paper --load=$l --csv=out/a2a-$l.csv; done
  awk 'FNR > 1 || NR == 1' out/a2a-*.csv > out/a2a.csv
  python3 tools/plot.py out/a2a.csv               # out/a2a-all2all-rail-websearch.png

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


HERMES_COLS = [
    ("mean_us", "mean FCT (us)"),
    ("small_mean_us", "small (<100KB) mean FCT (us)"),
    ("small_p99_us", "small p99 FCT (us)"),
    ("large_mean_us", "large (>10MB) mean FCT (us)"),
    ("unfinished_pct", "unfinished flows (%)"),
]


def csv_output(a):
    """(output directory, file-name base) for a paper CSV FILE.csv: next to it (or --out)
    named FILE, or as --png-prefix says; the directory is created."""
    base = os.path.basename(a.prefix)[:-4]
    outdir = a.out if a.out else (os.path.dirname(a.prefix) or ".")
    if a.png_prefix:
        outdir = os.path.dirname(a.png_prefix) or "."
        base = os.path.basename(a.png_prefix)
    os.makedirs(outdir, exist_ok=True)
    return outdir, base


def is_hermes_csv(path):
    if not (path.endswith(".csv") and os.path.isfile(path)):
        return False
    with open(path, newline="") as f:
        head = f.readline().strip().split(",")
    return "experiment" in head and "small_p99_us" in head and "load" in head


def plot_hermes(a, plt):
    """hermes-paper CSV: metrics against load per load balancer (mean over runs; with
    several runs of a point, error bars of one standard deviation)."""
    rows = read_summary(a.prefix)
    if not rows:
        sys.exit("plot.py: error: %s has no rows" % a.prefix)
    pts = {}  # lb -> load -> list of rows
    for r in rows:
        if int(r["flows"]) == 0:
            continue
        r = dict(r)
        r["unfinished_pct"] = 100.0 * float(r["unfinished"]) / float(r["flows"])
        pts.setdefault(r["lb"], {}).setdefault(float(r["load"]), []).append(r)
    if not pts:
        sys.exit("plot.py: error: %s has no point with flows" % a.prefix)
    outdir, base = csv_output(a)
    r0 = rows[0]
    title = a.title or "%s %s %s %s" % (r0["experiment"], r0["scale"], r0["workload"], r0["cc"])
    fig, axes = plt.subplots(1, len(HERMES_COLS), figsize=(3.4 * len(HERMES_COLS), 3.4),
                             squeeze=False)
    for ax, (c, label) in zip(axes[0], HERMES_COLS):
        for lb in sorted(pts):
            xs, vals, errs = [], [], []
            for l in sorted(pts[lb]):
                runs = [float(r[c]) for r in pts[lb][l]]
                v = sum(runs) / len(runs)
                if v == 0 and c != "unfinished_pct":
                    continue  # no flow of that size class at this point
                xs.append(100 * l)
                vals.append(v)
                # sample standard deviation over the runs (seeds) of the point
                errs.append((sum((x - v) ** 2 for x in runs) / (len(runs) - 1)) ** 0.5
                            if len(runs) > 1 else 0.0)
            if any(errs):
                ax.errorbar(xs, vals, yerr=errs, marker="o", capsize=3, label=lb)
            else:
                ax.plot(xs, vals, marker="o", label=lb)
        ax.set_xlabel("load (%)")
        ax.set_title(label, fontsize=9)
        ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    out = os.path.join(outdir, "%s-hermes.%s" % (base, a.format))
    fig.savefig(out)
    plt.close(fig)
    print(out)

def is_laps_csv(path):
    if not (path.endswith(".csv") and os.path.isfile(path)):
        return False
    with open(path, newline="") as f:
        head = f.readline().strip().split(",")
    return "experiment" in head and "avg_fct_ms" in head and "lb" in head and "topo" in head


def plot_laps(a, plt):
    """laps-paper CSV(s) merged into one file: all2all as average and P99 FCT against load
    (one line per scheme, Figs. 8-17) or, with one load, bars per scheme; allreduce and
    allscatter as bars per scheme (Tables II-IV), one bar group per --loss.  Rows of the
    same point with different rng_run are averaged; skipped rows are left out."""
    rows = [r for r in read_summary(a.prefix)
            if not r.get("note", "").startswith("skipped") and r.get("flows", "0") != "0"]
    if not rows:
        sys.exit("plot.py: error: %s: no laps-paper row with flows" % a.prefix)
    outdir, base = csv_output(a)
    groups = {}  # (experiment, topo, scale, cdf) -> rows
    for r in rows:
        cdf = r.get("cdf", "") if r["experiment"] == "all2all" else ""
        groups.setdefault((r["experiment"], r["topo"], r["scale"], cdf), []).append(r)
    cols = [("avg_fct_ms", "average FCT (ms)"), ("p99_fct_ms", "P99 FCT (ms)")]

    def mean(rs, c):
        v = [float(x[c]) for x in rs]
        return sum(v) / len(v)

    for (exp, topo, scale, cdf), sel in sorted(groups.items()):
        lbs = []
        for r in sel:
            if r["lb"] not in lbs:
                lbs.append(r["lb"])
        xkey = "load" if exp == "all2all" else "loss"
        xs = sorted(set(float(r.get(xkey) or 0) for r in sel))
        nruns = len(set(r.get("rng_run", "1") for r in sel))
        fig, axes = plt.subplots(1, len(cols), figsize=(4.6 * len(cols), 3.6), squeeze=False)
        for ax, (c, label) in zip(axes[0], cols):
            if exp == "all2all" and len(xs) > 1:
                for lb in lbs:
                    px, py = [], []
                    for x in xs:
                        pts = [r for r in sel if r["lb"] == lb and float(r.get(xkey) or 0) == x]
                        if pts:
                            px.append(100 * x)
                            py.append(mean(pts, c))
                    ax.plot(px, py, marker="o", label=lb)
                ax.set_xlabel("load (%)")
            else:
                width = 0.8 / len(xs)
                for i, x in enumerate(xs):
                    vals = []
                    for lb in lbs:
                        pts = [r for r in sel if r["lb"] == lb and float(r.get(xkey) or 0) == x]
                        vals.append(mean(pts, c) if pts else 0.0)
                    name = ("load %g" % x) if exp == "all2all" else ("loss %g" % x)
                    ax.bar([k + (i - (len(xs) - 1) / 2) * width for k in range(len(lbs))], vals,
                           width, label=name)
                ax.set_xticks(range(len(lbs)))
                ax.set_xticklabels(lbs, rotation=30, fontsize=8)
            ax.set_title(label, fontsize=9)
            ax.grid(True, alpha=0.3)
        axes[0][0].legend(fontsize=7)
        fig.suptitle("%s %s %s%s%s" % (exp, topo, scale, (" " + cdf) if cdf else "",
                                       ", mean of %d runs" % nruns if nruns > 1 else ""))
        fig.tight_layout()
        out = os.path.join(outdir, "%s-%s-%s%s.%s" % (base, exp, topo, ("-" + cdf) if cdf else "",
                                                      a.format))
        fig.savefig(out)
        plt.close(fig)
        print(out)


SPRITZ_PRETTY = {
    "monitored_fct_us": "monitored flow FCT (us)",
    "mean_us": "mean FCT (us)",
    "p50_us": "median FCT (us)",
    "p99_us": "p99 FCT (us)",
    "max_us": "max FCT (us)",
    "completion_us": "completion time (us)",
}


def plot_spritz(a, plt, outdir, base, title):
    """spritz-paper CSV: one bar chart per experiment label; returns the files written."""
    with open(a.prefix, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "experiment" not in rows[0] or "scheme" not in rows[0]:
        sys.exit("plot.py: error: %s: not a spritz-paper CSV (no experiment/scheme columns) "
                 "or no rows" % a.prefix)
    written = []
    labels = []
    for r in rows:
        if r["experiment"] not in labels:
            labels.append(r["experiment"])
    for lab in labels:
        sel = [r for r in rows if r["experiment"] == lab]
        if a.bars:
            cols = [c for c in a.bars.split(",") if c]
        elif lab.startswith("motivational"):
            cols = ["monitored_fct_us"]
        elif lab.startswith("collectives"):
            cols = ["completion_us", "trims"]
        else:
            cols = ["p99_us", "mean_us"]
        missing = [c for c in cols if c not in sel[0]]
        if missing:
            sys.exit("plot.py: error: --bars: unknown column(s) %s; available: %s"
                     % (", ".join(missing), ", ".join(sel[0].keys())))
        schemes = []
        for r in sel:
            if r["scheme"] not in schemes:
                schemes.append(r["scheme"])
        fig, axes = plt.subplots(1, len(cols), figsize=(max(4.0, 0.55 * len(schemes) + 1.5)
                                                          * len(cols), 3.8), squeeze=False)
        for ax, c in zip(axes[0], cols):
            vals = []
            for sc in schemes:
                v = [float(r[c]) for r in sel if r["scheme"] == sc and r[c] not in ("", "-1.00")]
                vals.append(sum(v) / len(v) if v else 0.0)
            dnf = [any(r.get("finished", "1") == "0" for r in sel if r["scheme"] == sc)
                   for sc in schemes]
            bars = ax.bar(schemes, vals, color=["C%d" % i for i in range(len(schemes))])
            for b, d in zip(bars, dnf):
                if d:
                    ax.annotate("DNF", (b.get_x() + b.get_width() / 2, b.get_height()),
                                ha="center", va="bottom", fontsize=7)
            ax.set_title(SPRITZ_PRETTY.get(c, c))
            ax.tick_params(axis="x", labelrotation=60, labelsize=7)
            ax.grid(True, axis="y", alpha=0.3)
        topo = sel[0].get("topo", "")
        nseeds = len(set(r.get("seed", "") for r in sel))
        fig.suptitle("%s: %s (%s%s)" % (title, lab, topo,
                                        ", mean of %d seeds" % nseeds if nseeds > 1 else ""))
        fig.tight_layout()
        out = os.path.join(outdir, "%s-%s-bars.%s" % (base, lab, a.format))
        fig.savefig(out)
        written.append(out)
        plt.close(fig)
    return written


def main(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("prefix", help="the --csv prefix given to dcn-lb-compare, or a "
                   "hermes-paper, laps-paper or spritz-paper --csv file (FILE.csv)")
    p.add_argument(
        "--metric",
        default="fct_us",
        choices=["fct_us", "slowdown", "ideal_fct_us"],
        help="per-flow column for the CDF plot (default fct_us)",
    )
    p.add_argument(
        "--bars",
        default=None,
        help="comma-separated summary columns for the bar chart "
        "(default mean_fct_us,p99_fct_us,max_fct_us; also retransmissions, "
        "timeouts, drops, marks, fabric_trims, ...; spritz-paper CSV: any of its "
        "columns, default per experiment)",
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

    if is_hermes_csv(a.prefix):
        plot_hermes(a, plt)
        return
    if is_laps_csv(a.prefix):
        plot_laps(a, plt)
        return

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
    if a.prefix.endswith(".csv") and os.path.isfile(a.prefix):
        for w in plot_spritz(a, plt, outdir, base[:-4] if base.endswith(".csv") else base, title):
            print(w)
        return
    if a.bars is None:
        a.bars = "mean_fct_us,p99_fct_us,max_fct_us"
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
