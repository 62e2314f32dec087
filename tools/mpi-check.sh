#!/usr/bin/env bash
# Equality check of a distributed (MPI) run against the sequential run of the same
# flows (issue 13 item 4; README "Distributed runs (MPI)", doc/mpi.rst).
#
#   tools/mpi-check.sh [--np N] [--topo reps128] [--lb reps] [--msgBytes 1MiB] [--bin FILE]
#
# Runs dcn-transport-bench of the MPI build (tools/mpi-build.sh; --bin to pick another
# binary) three times on the same permutation:
#   sequential:  <bin> --perHostStreams ...                    (ns-3's default simulator)
#   mpi-1rank:   mpirun -np 1 <bin> --mpi ...                  (DistributedSimulatorImpl)
#   mpi-Nranks:  mpirun -np N <bin> --mpi ...
# and compares the per-flow CSVs (--flowCsv, sorted by sender).  1 rank must be
# IDENTICAL to the sequential run (same streams, same records, same merge); N ranks:
# IDENTICAL, else WITHIN-1% (same flows completed, mean/p50/p99/max FCT within 1%),
# else DIFFERENT (exit 1).  On N ranks, packets crossing ranks are inserted into the
# receiving rank's event queue when the MPI message arrives, so at equal timestamps
# they can be ordered differently than in the sequential run (doc/mpi.rst).  CPU
# (user+sys of all ranks), wall time and peak RSS of every run are printed.
set -euo pipefail

NP=2
TOPO=reps128
LB=reps
MSG=1MiB
BIN=""
while [[ $# -gt 0 ]]; do
    case "$1" in
    --np) NP=$2; shift 2 ;;
    --topo) TOPO=$2; shift 2 ;;
    --lb) LB=$2; shift 2 ;;
    --msgBytes) MSG=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    *) echo "mpi-check: unknown argument '$1'; allowed --np N, --topo T, --lb L, --msgBytes B, --bin FILE" >&2; exit 2 ;;
    esac
done
if ! [[ "$NP" =~ ^[1-9][0-9]*$ ]]; then
    echo "mpi-check: --np '$NP'; allowed a positive integer" >&2
    exit 2
fi
if [[ -z "$BIN" ]]; then
    CACHE=${DCNLB_MPI_CACHE:-$HOME/.cache/dcn-lb-mpi}
    BIN=$(ls "$CACHE"/src-3.37/ns-allinone-3.37/ns-3.37/build/contrib/dcn-lb/ns3.37-dcn-transport-bench-* 2>/dev/null | head -n1 || true)
fi
if [[ -z "$BIN" || ! -x "$BIN" ]]; then
    echo "mpi-check: no MPI build of dcn-transport-bench (run tools/mpi-build.sh first, or give --bin FILE)" >&2
    exit 2
fi
command -v mpirun >/dev/null || { echo "mpi-check: mpirun not found (tools/mpi-build.sh installs Open MPI)" >&2; exit 2; }

OUT=$(mktemp -d /tmp/dcn-mpi-check.XXXXXX)
ARGS=(--topo="$TOPO" --lb="$LB" --msgBytes="$MSG")
echo "binary: $BIN"
echo "case: ${ARGS[*]}, $NP ranks"

run() { # name, command...
    local name=$1
    shift
    /usr/bin/time -f "%U %S %e %M" -o "$OUT/$name.time" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err" || {
        echo "mpi-check: the $name run failed (exit $?):" >&2
        tail -n 20 "$OUT/$name.err" "$OUT/$name.out" >&2
        exit 1
    }
    read -r user sys wall rss <"$OUT/$name.time"
    printf '%-10s cpu %.2f s (user %.2f + sys %.2f), wall %.2f s, peak RSS %d MiB (largest process)\n' \
        "$name" "$(echo "$user + $sys" | bc -l)" "$user" "$sys" "$wall" $((rss / 1024))
    grep "^topo=" "$OUT/$name.out" | sed 's/^/           /'
}
run sequential "$BIN" "${ARGS[@]}" --perHostStreams --flowCsv="$OUT/sequential.csv"
run mpi-1rank mpirun -np 1 --allow-run-as-root --bind-to none \
    "$BIN" "${ARGS[@]}" --mpi --flowCsv="$OUT/mpi-1rank.csv"
run "mpi-${NP}ranks" mpirun -np "$NP" --allow-run-as-root --oversubscribe --bind-to none \
    "$BIN" "${ARGS[@]}" --mpi --flowCsv="$OUT/mpi-${NP}ranks.csv"

compare() { # expected verdicts (IDENTICAL or WITHIN), csv a, csv b
    python3 - "$@" <<'PY'
import csv, math, sys
want, pa, pb = sys.argv[1:4]
def load(p):
    with open(p) as f:
        return list(csv.DictReader(f))
a, b = load(pa), load(pb)
if a == b:
    n = sum(1 for r in a if r["completed"] == "1")
    print(f"IDENTICAL: {len(a)} flows, {n} completed, every per-flow line equal "
          "(start, finish, FCT, retransmissions, out-of-order, timeouts, trims)")
    sys.exit(0)
def fcts(rows):
    return sorted(float(r["fct_us"]) for r in rows if r["completed"] == "1")
def pct(v, p):
    return v[max(0, math.ceil(p / 100 * len(v)) - 1)] if v else 0.0
done_a = {(r["src"], r["dst"]) for r in a if r["completed"] == "1"}
done_b = {(r["src"], r["dst"]) for r in b if r["completed"] == "1"}
fa, fb = fcts(a), fcts(b)
diff_lines = sum(1 for x, y in zip(a, b) if x != y) + abs(len(a) - len(b))
ok = done_a == done_b and len(a) == len(b)
for name, f in (("mean", lambda v: sum(v) / len(v) if v else 0.0),
                ("p50", lambda v: pct(v, 50)), ("p99", lambda v: pct(v, 99)),
                ("max", lambda v: v[-1] if v else 0.0)):
    x, y = f(fa), f(fb)
    rel = abs(x - y) / x if x else 0.0
    ok = ok and rel <= 0.01
    print(f"  FCT {name}: sequential {x:.3f} us, mpi {y:.3f} us, difference {100 * rel:.3f}%")
ok = ok and want == "WITHIN"
verdict = "WITHIN-1%" if ok else "DIFFERENT"
print(f"{verdict}: {diff_lines} of {len(a)} per-flow lines differ; completed flows "
      f"{'the same' if done_a == done_b else 'differ'} ({len(done_a)} vs {len(done_b)})")
sys.exit(0 if ok else 1)
PY
}
rc=0
echo "1 rank (DistributedSimulatorImpl, no remote link) vs sequential: must be identical"
compare IDENTICAL "$OUT/sequential.csv" "$OUT/mpi-1rank.csv" || rc=1
echo "$NP ranks vs sequential: identical, or the same flows complete with FCT mean/p50/p99/max within 1%"
compare WITHIN "$OUT/sequential.csv" "$OUT/mpi-${NP}ranks.csv" || rc=1
echo "files: $OUT"
exit $rc
