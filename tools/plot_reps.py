#!/usr/bin/python3
"""Plot the CSV output of examples/reps-paper.cc (REPS paper reproduction).

reps-paper --out=DIR writes DIR/<experiment>.csv (one row per run) and, for
--experiment=symmetric, DIR/symmetric-timeseries.csv.  This script writes one
figure per experiment into DIR (or --out):

  symmetric    symmetric-timeseries.png: per-uplink utilisation (20 us buckets) and
               queue size of ToR 0's uplinks, one panel per load balancer (paper Fig. 2)
  asymmetric / transient / incremental: <exp>.png, max FCT and drops per load balancer
               (paper Figs. 4 and 7, App. C.3)
  macro        macro.png: max FCT (mean FCT for websearch) per workload, one panel per
               scenario, normalised to REPS (paper Figs. 3, 5, 8)
  evs-sweep    evs-sweep.png: max FCT vs EV set size (paper Fig. 15)
  ack-sweep    ack-sweep.png: max FCT vs coalescing ratio and variant (paper Fig. 12)

With --text (or without matplotlib) it prints the tables instead.

Examples:
  ./build-release/reps-paper --experiment=all --out=results/reps
  python3 tools/plot_reps.py results/reps
  python3 tools/plot_reps.py results/reps --text
"""

import argparse
import csv
import os
import sys
from collections import OrderedDict, defaultdict


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def metric_of(row):
    # DC traces: mean FCT; everything else: max FCT (runtime), REPS spec 3.5
    return float(row["mean_fct_us"] if row["workload"] == "websearch" else row["max_fct_us"])


def text_summary(rows, exp):
    print("== %s ==" % exp)
    print("%-12s %-13s %-5s %-18s %10s %10s %8s %8s" %
          ("scenario", "workload", "lb", "param", "max_us", "mean_us", "cdrops", "fdrops"))
    for r in rows:
        print("%-12s %-13s %-5s %-18s %10.1f %10.1f %8s %8s" %
              (r["scenario"], r["workload"], r["lb"], r["param"], float(r["max_fct_us"]),
               float(r["mean_fct_us"]), r["cong_drops"], r["fail_drops"]))


def plot_bars(plt, rows, exp, out, fmt):
    fig, axes = plt.subplots(1, 2, figsize=(8, 3))
    labels = ["%s %s" % (r["lb"], r["param"] if r["param"] != "-" else "") for r in rows]
    axes[0].bar(labels, [float(r["max_fct_us"]) for r in rows], color="C0")
    axes[0].set_ylabel("max FCT (us)")
    axes[1].bar(labels, [int(r["cong_drops"]) + int(r["fail_drops"]) + int(r["unroutable_drops"])
                         for r in rows], color="C3")
    axes[1].set_ylabel("dropped packets")
    for a in axes:
        a.tick_params(axis="x", rotation=30)
    fig.suptitle(exp)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "%s.%s" % (exp, fmt)))
    plt.close(fig)


def plot_timeseries(plt, path, out, fmt):
    rows = read(path)
    by_lb = OrderedDict()
    for r in rows:
        by_lb.setdefault(r["lb"], defaultdict(list))[int(r["uplink"])].append(
            (float(r["t_us"]), float(r["util_gbps"]), float(r["queue_bytes"]),
             float(r["queue_limit_bytes"])))
    fig, axes = plt.subplots(len(by_lb), 1, figsize=(8, 3 * len(by_lb)), squeeze=False)
    for ax, (lb, ups) in zip(axes[:, 0], by_lb.items()):
        ax2 = ax.twinx()
        lim = 0
        for u, pts in sorted(ups.items()):
            t = [p[0] for p in pts]
            ax.plot(t, [p[1] for p in pts], lw=0.8, color="C%d" % (u % 10))
            ax2.plot(t, [p[2] / 1000 for p in pts], lw=0.6, ls="--", color="C%d" % (u % 10))
            lim = pts[0][3]
        if lim:
            ax2.axhline(0.2 * lim / 1000, color="k", lw=0.5, ls=":")
            ax2.axhline(0.8 * lim / 1000, color="k", lw=0.5, ls=":")
        ax.set_title("%s: ToR 0 uplinks (solid: Gb/s per 20 us; dashed: queue kB; dotted: Kmin/Kmax)"
                     % lb, fontsize=9)
        ax.set_xlabel("time (us)")
        ax.set_ylabel("Gb/s")
        ax2.set_ylabel("queue (kB)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "symmetric-timeseries.%s" % fmt))
    plt.close(fig)


def plot_macro(plt, rows, out, fmt):
    scen = OrderedDict()
    for r in rows:
        key = r["workload"] + ("" if r["param"] == "-" else "\n" + r["param"])
        scen.setdefault(r["scenario"], OrderedDict()).setdefault(key, {})[r["lb"]] = metric_of(r)
    fig, axes = plt.subplots(1, len(scen), figsize=(5 * len(scen), 3.5), squeeze=False)
    for ax, (sc, wl) in zip(axes[0], scen.items()):
        lbs = sorted({lb for v in wl.values() for lb in v})
        w = 0.8 / max(1, len(lbs))
        for i, lb in enumerate(lbs):
            ys = []
            for k, v in wl.items():
                ref = v.get("reps") or 1.0
                ys.append(v.get(lb, 0) / ref)
            ax.bar([x + i * w for x in range(len(wl))], ys, w, label=lb)
        ax.set_xticks([x + 0.4 - w / 2 for x in range(len(wl))])
        ax.set_xticklabels(list(wl.keys()), fontsize=7, rotation=30)
        ax.set_ylabel("runtime / REPS (websearch: mean FCT)")
        ax.set_title(sc)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "macro.%s" % fmt))
    plt.close(fig)


def plot_sweep(plt, rows, exp, out, fmt):
    series = OrderedDict()
    for r in rows:
        p = r["param"]
        if exp == "ack-sweep":
            ratio, _, variant = p.partition("=")[2].partition("/")
            name = "%s %s %s" % (r["scenario"], r["lb"], variant or "")
            x = int(ratio)
        else:
            name = r["lb"]
            x = int(p.partition("=")[2])
        series.setdefault(name, []).append((x, float(r["max_fct_us"])))
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for name, pts in series.items():
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("EV set size" if exp == "evs-sweep" else "ACK coalescing ratio n:1")
    ax.set_ylabel("max FCT (us)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "%s.%s" % (exp, fmt)))
    plt.close(fig)


def plot_micro(plt, rows, out, fmt):
    """Issue 10 micro scenarios: max FCT and drops per scenario, one bar per lb."""
    scen = []
    for r in rows:
        if r["scenario"] not in scen:
            scen.append(r["scenario"])
    lbs = []
    for r in rows:
        if r["lb"] not in lbs:
            lbs.append(r["lb"])
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.2))
    w = 0.8 / max(1, len(lbs))
    for i, lb in enumerate(lbs):
        xs, mx, dr = [], [], []
        for j, sc in enumerate(scen):
            rs = [r for r in rows if r["scenario"] == sc and r["lb"] == lb]
            if not rs:
                continue
            xs.append(j + i * w)
            mx.append(sum(float(r["max_fct_us"]) for r in rs) / len(rs))
            dr.append(sum(int(r["cong_drops"]) + int(r["fail_drops"]) for r in rs) / len(rs))
        axes[0].bar(xs, mx, w, label=lb)
        axes[1].bar(xs, dr, w, label=lb)
    for a, yl in zip(axes, ["max FCT (us), mean over seeds", "dropped packets, mean over seeds"]):
        a.set_xticks([j + 0.4 - w / 2 for j in range(len(scen))])
        a.set_xticklabels(scen, rotation=20)
        a.set_ylabel(yl)
    axes[0].legend()
    fig.suptitle("micro (128 hosts, reps-artifact profile)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "micro.%s" % fmt))
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", default="results/reps", help="reps-paper --out directory")
    ap.add_argument("--out", default=None, help="output directory (default: the input directory)")
    ap.add_argument("--format", default="png", choices=["png", "pdf", "svg"])
    ap.add_argument("--text", action="store_true", help="print tables instead of plotting")
    a = ap.parse_args()
    if not os.path.isdir(a.dir):
        sys.exit("plot_reps.py: error: %s is not a directory (run reps-paper --out=%s first)"
                 % (a.dir, a.dir))
    out = a.out or a.dir
    os.makedirs(out, exist_ok=True)
    plt = None
    if not a.text:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("plot_reps.py: matplotlib not found (install python3-matplotlib); printing "
                  "tables", file=sys.stderr)
    found = False
    for exp in ["symmetric", "asymmetric", "transient", "incremental", "macro", "evs-sweep",
                "ack-sweep", "micro"]:
        path = os.path.join(a.dir, exp + ".csv")
        if not os.path.exists(path):
            continue
        found = True
        rows = read(path)
        if plt is None:
            if exp != "micro":
                text_summary(rows, exp)
            continue
        if exp == "micro":
            plot_micro(plt, rows, out, a.format)
        elif exp == "macro":
            plot_macro(plt, rows, out, a.format)
        elif exp in ("evs-sweep", "ack-sweep"):
            plot_sweep(plt, rows, exp, out, a.format)
        else:
            plot_bars(plt, rows, exp, out, a.format)
        if exp == "symmetric":
            ts = os.path.join(a.dir, "symmetric-timeseries.csv")
            if os.path.exists(ts):
                plot_timeseries(plt, ts, out, a.format)
    if not found:
        sys.exit("plot_reps.py: error: no reps-paper CSV in %s" % a.dir)


if __name__ == "__main__":
    main()
