#!/usr/bin/env bash
# RoCE (in-order go-back-N + DCQCN + PFC on shared-buffer switches) against the
# default out-of-order transport (DCTCP, lossy per-port queues) on the same
# 128-host permutation (issue 12, bench).  Wall time, events, events/s, packet
# hops and peak RSS per run, one line each, plus the CSV lines of bench/run.sh's
# format in bench/results.csv (or -o CSV).
#
#   bench/roce.sh [-o CSV] [-b BUILD_DIR] [extra dcn-transport-bench args...]
#   nice -n 10 bench/roce.sh --lb=ecmp --msgBytes=1048576
#
# Uses an existing build (default build/; this script never builds: build with
# -j2 first).  Timings are measurements only: no test asserts them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CSV=bench/results.csv
B=build
while [[ $# -gt 0 ]]; do
    case $1 in
    -o) CSV=$2; shift 2 ;;
    -b) B=$2; shift 2 ;;
    *) break ;;
    esac
done
BIN=$B/dcn-transport-bench
[[ -x $BIN ]] || { echo "bench: no $BIN (build it first)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench: needs /usr/bin/time (bash tools/install-deps.sh time)" >&2; exit 2; }
if [[ ! -s $CSV ]]; then
    mkdir -p "$(dirname "$CSV")"
    echo "scenario,args,wall_s,events,events_per_s,packet_hops,packet_hops_per_s,peak_rss_kb" >"$CSV"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-8s %9s %12s %12s %12s %10s\n' transport wall_s events events_per_s packet_hops peak_mb
for tr in dcn roce; do
    args=(--topo=reps128 --transport=$tr "$@")
    t0=$(date +%s.%N)
    /usr/bin/time -v -o "$tmp/time" "$BIN" "${args[@]}" >"$tmp/out" 2>"$tmp/err" || {
        echo "bench: $BIN ${args[*]} failed:" >&2
        tail -n 20 "$tmp/err" >&2
        exit 1
    }
    t1=$(date +%s.%N)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time")
    bl=$(grep '^BENCH ' "$tmp/out" | tail -n1 || true)
    ev=$(sed -n 's/.*[ ]events=\([0-9]*\).*/\1/p' <<<"$bl")
    hops=$(sed -n 's/.*[ ]packet_hops=\([0-9]*\).*/\1/p' <<<"$bl")
    eps=$(awk -v n="$ev" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0 ? n / w : 0) }')
    hps=$(awk -v n="$hops" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0 ? n / w : 0) }')
    printf '%-8s %9s %12s %12s %12s %10.1f\n' "$tr" "$wall" "$ev" "$eps" "$hops" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
    echo "dcn-transport-bench,\"${args[*]}\",$wall,$ev,$eps,$hops,$hps,$rss" >>"$CSV"
    grep -E "^topo=" "$tmp/out" | sed "s/^/  /" || true
done
