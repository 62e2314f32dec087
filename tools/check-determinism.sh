#!/usr/bin/env bash
# Determinism of dcn-lb-compare, reps-paper, hermes-paper and laps-paper (issue 9): the same --RngRun gives byte-identical
# per-flow CSVs, summary CSV and stdout table; another --RngRun gives a different
# per-flow output.  (dcn-lb-compare prints wall-clock times only on stderr, which is
# not compared.)  Usage: tools/check-determinism.sh [build dir]
# Last line: "determinism checks: <p> passed, <f> failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
B=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A short scenario in which randomness matters: OPS/REPS spray, ECMP hash salts and
# the permutation all draw from the run's streams.
ARGS=(--quiet --lb=ecmp,ops,reps --msgSize=256KiB)
pass=0
fail=0
ok() {
    pass=$((pass + 1))
    echo "PASS determinism: $*"
}
ko() {
    fail=$((fail + 1))
    echo "FAIL determinism: $*"
}
run() { # run <RngRun> <dir>
    mkdir -p "$tmp/$2"
    timeout 300 "$B/dcn-lb-compare" "${ARGS[@]}" --RngRun="$1" --csv="$tmp/$2/r" >"$tmp/$2/stdout" 2>/dev/null
}
for r in "1 a" "1 b" "2 c"; do
    # shellcheck disable=SC2086
    if ! run $r; then
        ko "dcn-lb-compare --RngRun=${r% *} failed"
    fi
done
flows=$(cd "$tmp/a" && ls r-*.csv 2>/dev/null | grep -v summary)
if [[ -z $flows ]]; then
    ko "no per-flow CSV written"
fi
same=1
for f in $flows r-summary.csv stdout; do
    if ! cmp -s "$tmp/a/$f" "$tmp/b/$f"; then
        same=0
        ko "same seed (RngRun=1), $f differs: $(diff "$tmp/a/$f" "$tmp/b/$f" | head -n 3 | tr '\n' ' ')"
    fi
done
[[ $same -eq 1 && -n $flows ]] && ok "RngRun=1 twice: $(echo $flows) r-summary.csv stdout byte-identical"
differ=0
for f in $flows; do
    if ! cmp -s "$tmp/a/$f" "$tmp/c/$f"; then
        differ=$((differ + 1))
    fi
done
if [[ $differ -gt 0 ]]; then
    ok "RngRun=2 vs 1: $differ of $(echo $flows | wc -w) per-flow CSVs differ"
else
    ko "RngRun=2 gives the same per-flow output as RngRun=1"
fi

# reps-paper: result CSVs (no wall-clock column) byte-identical for the same --RngRun,
# different for another one; wall-clock times go to <experiment>-wall.csv (not compared)
rp() { # rp <RngRun> <dir>
    timeout 300 "$B/reps-paper" --experiment=asymmetric --lbs=ops,reps --RngRun="$1" \
        --out="$tmp/$2" >/dev/null 2>&1
}
for r in "1 ra" "1 rb" "2 rc"; do
    # shellcheck disable=SC2086
    rp $r || ko "reps-paper --RngRun=${r% *} failed"
done
if [[ -s $tmp/ra/asymmetric.csv ]] && cmp -s "$tmp/ra/asymmetric.csv" "$tmp/rb/asymmetric.csv"; then
    ok "reps-paper RngRun=1 twice: asymmetric.csv byte-identical"
else
    ko "reps-paper RngRun=1 twice: asymmetric.csv missing or differs"
fi
if [[ -s $tmp/rc/asymmetric.csv ]] && ! cmp -s "$tmp/ra/asymmetric.csv" "$tmp/rc/asymmetric.csv"; then
    ok "reps-paper RngRun=2 vs 1: asymmetric.csv differs"
else
    ko "reps-paper RngRun=2 gives the same asymmetric.csv as RngRun=1 (or none)"
fi
# hermes-paper honours --RngRun: --RngRun=2 --runs=1 gives the row of run 2 of --runs=2
# (CSV without the wall-clock column wall_s, field 15)
hp() { # hp <csv> <args...>
    local f=$1
    shift
    timeout 300 "$B/hermes-paper" --lbs=ecmp --loads=0.3 "$@" --csv="$f" >/dev/null 2>&1 &&
        cut -d, -f1-14,16- "$f" >"$f.cut"
}
if hp "$tmp/h12.csv" --runs=2 && hp "$tmp/h2.csv" --RngRun=2 --runs=1; then
    r2=$(awk -F, '$7 == 2' "$tmp/h12.csv.cut")
    r1=$(awk -F, '$7 == 1' "$tmp/h12.csv.cut")
    if [[ -n $r2 && $r2 == "$(tail -n +2 "$tmp/h2.csv.cut")" && $r1 != "$r2" ]]; then
        ok "hermes-paper --RngRun=2 --runs=1 = run 2 of --runs=2 (and differs from run 1)"
    else
        ko "hermes-paper --RngRun=2 --runs=1 is not run 2 of --runs=2: '$(tail -n +2 "$tmp/h2.csv.cut")' vs '$r2' (run 1 '$r1')"
    fi
else
    ko "hermes-paper failed"
fi
# laps-paper honours --RngRun / --RngSeed (it ignored them before 2026-11-28): the same
# run twice gives the same CSV, another run a different one (the last two fields,
# wall_s and note, dropped)
lp() { # lp <csv> <args...>
    local f=$1
    shift
    timeout 300 "$B/laps-paper" --lb=ecmp,laps --duration=50us "$@" --csv="$f" >/dev/null 2>&1 &&
        awk -F, -v OFS=, '{NF -= 2; print}' "$f" >"$f.cut"
}
if lp "$tmp/l1a.csv" --RngRun=1 && lp "$tmp/l1b.csv" --RngRun=1 && lp "$tmp/l2.csv" --RngRun=2; then
    if cmp -s "$tmp/l1a.csv.cut" "$tmp/l1b.csv.cut"; then
        ok "laps-paper RngRun=1 twice: same CSV (wall_s and note aside)"
    else
        ko "laps-paper RngRun=1 twice: CSVs differ: $(diff "$tmp/l1a.csv.cut" "$tmp/l1b.csv.cut" | head -n 3 | tr '\n' ' ')"
    fi
    if ! cmp -s "$tmp/l1a.csv.cut" "$tmp/l2.csv.cut"; then
        ok "laps-paper RngRun=2 vs 1: CSV differs"
    else
        ko "laps-paper RngRun=2 gives the same CSV as RngRun=1"
    fi
else
    ko "laps-paper failed"
fi
echo "determinism checks: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
