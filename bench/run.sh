#!/usr/bin/env bash
# Times one scenario (any dcn-lb example + its arguments) on a Release build.
#
#   bench/run.sh [-n REPEAT] [-o CSV] <example> [example args...]
#   e.g. bench/run.sh -n 3 dcn-lb-compare --lb=reps
#
# Builds build-release/ (CMAKE_BUILD_TYPE=Release) first, then runs the example
# REPEAT times (default 1) under /usr/bin/time -v and appends one CSV line per run
# to CSV (default bench/results.csv; a header line is written to a new file):
#   scenario,args,wall_s,events,events_per_s,packet_hops,packet_hops_per_s,peak_rss_kb
# events / packet_hops come from the example's last "BENCH events=<n> packet_hops=<n>"
# stdout line (see bench/README.md); empty if the example does not print it.
# Timings are measurements only: no test ever asserts them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPEAT=1
CSV=bench/results.csv
while getopts "n:o:" opt; do
    case $opt in
    n) REPEAT=$OPTARG ;;
    o) CSV=$OPTARG ;;
    *) echo "usage: $0 [-n REPEAT] [-o CSV] <example> [args...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 ]] || { echo "usage: $0 [-n REPEAT] [-o CSV] <example> [args...]" >&2; exit 2; }
EX=$1
shift
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || { echo "bench: -n must be a positive integer, got '$REPEAT'" >&2; exit 2; }

[[ -x /usr/bin/time ]] || bash tools/install-deps.sh time
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-release -j"$(nproc)" --target "$EX" >/dev/null
BIN=build-release/$EX
[[ -x $BIN ]] || { echo "bench: no example '$EX' (looked for $BIN)" >&2; exit 2; }

csvq() { local s=${1//\"/\"\"}; printf '"%s"' "$s"; }
if [[ ! -s $CSV ]]; then
    mkdir -p "$(dirname "$CSV")"
    echo "scenario,args,wall_s,events,events_per_s,packet_hops,packet_hops_per_s,peak_rss_kb" >"$CSV"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((r = 1; r <= REPEAT; r++)); do
    t0=$(date +%s.%N)
    /usr/bin/time -v -o "$tmp/time" "$BIN" "$@" >"$tmp/out" 2>"$tmp/err" || {
        echo "bench: $EX $* failed (run $r):" >&2
        tail -n 20 "$tmp/err" >&2
        exit 1
    }
    t1=$(date +%s.%N)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time")
    bl=$(grep '^BENCH ' "$tmp/out" | tail -n1 || true)
    ev=$(sed -n 's/.*[ ]events=\([0-9]*\).*/\1/p' <<<"$bl")
    hops=$(sed -n 's/.*[ ]packet_hops=\([0-9]*\).*/\1/p' <<<"$bl")
    eps=""
    hps=""
    [[ -n $ev ]] && eps=$(awk -v n="$ev" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0 ? n / w : 0) }')
    [[ -n $hops ]] && hps=$(awk -v n="$hops" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0 ? n / w : 0) }')
    line="$EX,$(csvq "$*"),$wall,$ev,$eps,$hops,$hps,$rss"
    echo "$line" >>"$CSV"
    echo "$line"
done
