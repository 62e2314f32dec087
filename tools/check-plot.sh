#!/usr/bin/env bash
# Plotting works out of the box: runs the flagship's default scenario with --csv,
# then tools/plot.py with Debian's interpreter and matplotlib (installed by
# tools/install-deps.sh), and checks that both PNGs (FCT CDF per load balancer, bar
# chart of mean/p99/max FCT) are written and are PNG files; then a tiny hermes-paper run
# (--csv, two runs per point: error bars) and tools/plot.py on its CSV (metrics against
# load per load balancer), and a
# small spritz-paper run (Table III scenario, 2 schemes, 256 KiB) and tools/plot.py on
# its CSV (one bar chart per experiment label: motivational-solo, motivational), and two
# tiny laps-paper runs (loads 0.5 and 0.8) merged and plotted (FCT against load).
#   tools/check-plot.sh [build dir]      -> last line "plot check: OK (<files>)"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
B=${1:-build}
[[ -x $B/dcn-lb-compare ]] || cmake --build "$B" --target dcn-lb-compare >/dev/null
[[ -x $B/hermes-paper ]] || cmake --build "$B" --target hermes-paper >/dev/null
[[ -x $B/spritz-paper ]] || cmake --build "$B" --target spritz-paper >/dev/null
[[ -x $B/laps-paper ]] || cmake --build "$B" --target laps-paper >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the flagship's --plot (it calls tools/plot.py on the CSVs it wrote)
"$B/dcn-lb-compare" --quiet --plot="$tmp/fig" >"$tmp/out.txt"
"$B/hermes-paper" --lbs=ecmp,hermes --loads=0.3,0.6 --duration=2ms --runs=2 --csv="$tmp/hp.csv" >/dev/null
/usr/bin/python3 tools/plot.py "$tmp/hp.csv" >/dev/null
# spritz-paper CSV (bars per scheme)
"$B/spritz-paper" --experiment=motivational --schemes=minimal,spritz-spray --msgSize=256KiB \
    --csv="$tmp/t3.csv" >/dev/null
/usr/bin/python3 tools/plot.py "$tmp/t3.csv" >"$tmp/plot-spritz.txt"
# laps-paper CSVs of two loads merged (FCT against load per scheme)
for l in 0.5 0.8; do
    "$B/laps-paper" --lb=laps,plb --load=$l --duration=20us --csv="$tmp/lp-$l.csv" >/dev/null
done
awk 'FNR > 1 || NR == 1' "$tmp/lp-0.5.csv" "$tmp/lp-0.8.csv" >"$tmp/lp.csv"
/usr/bin/python3 tools/plot.py "$tmp/lp.csv" >/dev/null
files="$tmp/fig-fct-cdf.png $tmp/fig-bars.png $tmp/hp-hermes.png $tmp/t3-motivational-solo-bars.png $tmp/t3-motivational-bars.png $tmp/lp-all2all-rail-websearch.png"
n=0
for f in $files; do
    [[ $(head -c 8 "$f" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || {
        echo "plot check: $f is not a PNG file" >&2
        exit 1
    }
    n=$((n + 1))
done
[[ $n -eq 6 ]] || { echo "plot check: expected 6 PNG files, got $n: $files" >&2; exit 1; }
echo "plot check: OK ($(for f in $files; do printf '%s %s B; ' "$(basename "$f")" "$(stat -c %s "$f")"; done))"
