#!/usr/bin/env bash
# Per-packet cost of load balancers against plain ECMP on the same run (issue 14 bench).
#
#   bench/lb-cost.sh [-n ROUNDS] [-b BUILD_DIR] [LB ...] [-- bench args...]
#   e.g. bench/lb-cost.sh -n 3 letflow drill conga conweave -- --topo=reps128 --msgBytes=262144
#
# Each round runs `dcn-transport-bench <bench args> --lb=ecmp` and `--lb=<LB>` for every
# LB, in an order rotated per round (these machines are noisy: compare runs made side by
# side), each under /usr/bin/time.  Per run: CPU seconds (user + sys, whole process),
# events and packet hops from the `BENCH` line.  Printed per LB, as medians over the
# rounds: cpu_us_per_hop, events_per_hop, and the ratio of its cpu_us_per_hop to ECMP's
# in the same round (> 1: the policy costs more per packet hop).  Defaults: 3 rounds,
# LBs letflow drill conga conweave presto drb reps, bench args --topo=reps128
# --msgBytes=262144.  An LB may name its congestion control as LB:CC (e.g. ops:dcqcn, which
# runs --lb=ops --cc=dcqcn; without it each scheme runs its own, LAPS its AIMD, since
# 2026-11-29).  Measurements only: no test
# asserts them.
#   LAPS against OPS on a small Rail (doc/laps.rst):
#   bench/lb-cost.sh -n 3 ops laps:laps -- --topo=laps-rail --msgBytes=1048576
# -i: count instructions instead of timing (valgrind's callgrind, about 50x slower, but
# deterministic: one round is enough, and other jobs on the machine do not disturb it).
# Each LB also runs once with --msgBytes=1000 instead (set-up and a few packets), and
# ir_per_hop = (Ir - Ir of that run) / (hops - its hops): the per-packet-hop work without
# the topology's set-up; vs_ecmp is its ratio to ECMP's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROUNDS=3
B=build
IR=0
while getopts "n:b:i" opt; do
    case $opt in
    n) ROUNDS=$OPTARG ;;
    b) B=$OPTARG ;;
    i) IR=1 ;;
    *) echo "usage: $0 [-n ROUNDS] [-b BUILD_DIR] [-i] [LB ...] [-- bench args...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "lb-cost: -n must be a positive integer, got '$ROUNDS'" >&2; exit 2; }
LBS=()
while [[ $# -gt 0 && $1 != -- ]]; do LBS+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
ARGS=("$@")
[[ ${#LBS[@]} -gt 0 ]] || LBS=(letflow drill conga conweave presto drb reps)
[[ ${#ARGS[@]} -gt 0 ]] || ARGS=(--topo=reps128 --msgBytes=262144)
BIN=$B/dcn-transport-bench
[[ -x $BIN ]] || { echo "lb-cost: no $BIN (build first: cmake --build $B --target dcn-transport-bench)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || bash tools/install-deps.sh time
ALL=(ecmp "${LBS[@]}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ $IR == 1 ]]; then
    command -v valgrind >/dev/null || bash tools/install-deps.sh valgrind
    for lb in "${ALL[@]}"; do
        CC=()
        [[ $lb == *:* ]] && CC=(--cc="${lb#*:}")
        for size in full setup; do
            RUNARGS=("${ARGS[@]}")
            if [[ $size == setup ]]; then
                RUNARGS=(--msgBytes=1000)
                for a in "${ARGS[@]}"; do [[ $a == --msgBytes=* ]] || RUNARGS+=("$a"); done
            fi
            valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" "${RUNARGS[@]}" \
                --lb="${lb%%:*}" "${CC[@]}" >"$tmp/out" 2>"$tmp/vg" ||
                { echo "lb-cost: $lb failed under valgrind" >&2; exit 1; }
            ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/vg")
            bench=$(grep '^BENCH' "$tmp/out" | tail -1)
            hops=$(sed -n 's/.*packet_hops=\([0-9]*\).*/\1/p' <<<"$bench")
            echo "$lb $size $ir $hops" >>"$tmp/ir"
            echo "$lb $size Ir=$ir packet_hops=$hops"
        done
    done
    python3 - "$tmp/ir" <<'EOF2'
import sys
d = {}
for line in open(sys.argv[1]):
    lb, size, ir, hops = line.split()
    d.setdefault(lb, {})[size] = (int(ir), int(hops))
def per_hop(lb):
    (i, h), (i0, h0) = d[lb]["full"], d[lb]["setup"]
    return (i - i0) / (h - h0)
print(f"{'lb':<10} {'ir_per_hop':>11} {'vs_ecmp':>8}")
for lb in d:
    print(f"{lb:<10} {per_hop(lb):>11.0f} {per_hop(lb) / per_hop('ecmp'):>8.3f}")
EOF2
    exit 0
fi
for ((r = 0; r < ROUNDS; r++)); do
    n=${#ALL[@]}
    for ((k = 0; k < n; k++)); do
        lb=${ALL[$(((k + r) % n))]}
        CC=()
        [[ $lb == *:* ]] && CC=(--cc="${lb#*:}")
        /usr/bin/time -f "%U %S" -o "$tmp/time" "$BIN" "${ARGS[@]}" --lb="${lb%%:*}" "${CC[@]}" >"$tmp/out" 2>/dev/null ||
            { echo "lb-cost: $lb failed: $BIN ${ARGS[*]} --lb=${lb%%:*} ${CC[*]}" >&2; exit 1; }
        read -r u s <"$tmp/time"
        bench=$(grep '^BENCH' "$tmp/out" | tail -1)
        ev=$(sed -n 's/.*events=\([0-9]*\).*/\1/p' <<<"$bench")
        hops=$(sed -n 's/.*packet_hops=\([0-9]*\).*/\1/p' <<<"$bench")
        echo "$r $lb $u $s $ev $hops" >>"$tmp/runs"
        echo "round $r $lb cpu_s=$(awk -v a="$u" -v b="$s" 'BEGIN{print a+b}') events=$ev packet_hops=$hops"
    done
done
python3 - "$tmp/runs" <<'EOF'
import sys, statistics
runs = {}
for line in open(sys.argv[1]):
    r, lb, u, s, ev, hops = line.split()
    runs.setdefault(lb, {})[int(r)] = (float(u) + float(s), int(ev), int(hops))
print(f"{'lb':<10} {'cpu_us_per_hop':>15} {'events_per_hop':>15} {'vs_ecmp':>8}")
for lb, rs in runs.items():
    cph = [c * 1e6 / h for c, _, h in rs.values()]
    eph = [e / h for _, e, h in rs.values()]
    ratio = [(rs[r][0] / rs[r][2]) / (runs["ecmp"][r][0] / runs["ecmp"][r][2]) for r in rs]
    print(f"{lb:<10} {statistics.median(cph):>15.2f} {statistics.median(eph):>15.3f} "
          f"{statistics.median(ratio):>8.3f}")
EOF
