#!/usr/bin/env bash
# Looks for bad inputs that end in something else than the one-line refusal:
# gives every numeric attribute of the listed TypeIds (--PrintAttributes) and every
# numeric / time / size / rate option of the example (--help) a few extreme values
# (negative, zero, tiny, huge, NaN-like) on top of a base command that runs, and
# reports each run that aborts, crashes, prints a source path, refuses in more than
# one line, leaves a file behind when it refuses or does not end within the timeout.  A development aid, not part of the
# test suite (a few minutes per example); what it finds goes into
# test/bad-input/corpus.txt once fixed.
#
#   tools/fuzz-bad-input.sh [-t SECONDS] <example> "<base args>" [ns3::TypeId ...]
#   tools/fuzz-bad-input.sh dcn-lb-compare "--quiet --msgSize=16KiB" ns3::FatTreeHelper ns3::DcnQueueDisc
#   tools/fuzz-bad-input.sh laps-paper "--duration=10us --lb=laps,ecmp" ns3::LapsPathSelector ns3::DcqcnCc
#
# Output: one line per finding (BAD / MULTI / LEFT / TIMEOUT), then "fuzz: <n> runs, <k> findings".
# A TIMEOUT can be a legitimately long run (e.g. a 1000 s arrival window): read it.
set -u
cd "$(dirname "$0")/.." || exit 1
B=$(realpath "${BUILD_DIR:-build}")
# every run in an empty scratch directory: a refusal must leave no file behind
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
T=30
if [[ ${1:-} == -t ]]; then
    T=$2
    shift 2
fi
if [[ $# -lt 2 ]]; then
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
ex=$1
base=$2
shift 2
[[ -x $B/$ex ]] || {
    echo "fuzz: $B/$ex not built"
    exit 2
}
# shellcheck disable=SC2086 # base arguments are whitespace-separated by design
if ! (cd "$scratch" && timeout "$T" "$B/$ex" $base >/dev/null 2>&1); then
    rc=$?
    [[ $rc -eq 3 ]] || {
        echo "fuzz: the base command '$ex $base' does not run (exit $rc)"
        exit 2
    }
fi
rm -rf "${scratch:?}"/* "${scratch:?}"/.[!.]* 2>/dev/null
runs=0
found=0
try() { # try <arg>
    local out rc
    runs=$((runs + 1))
    # shellcheck disable=SC2086
    out=$(cd "$scratch" && timeout "$T" "$B/$ex" $base "$1" 2>&1 >/dev/null)
    rc=$?
    local left
    left=$(ls -A "$scratch")
    rm -rf "${scratch:?}"/* "${scratch:?}"/.[!.]* 2>/dev/null
    if [[ $rc -eq 124 ]]; then
        echo "TIMEOUT $ex $1"
    elif [[ $rc -ne 0 && $rc -ne 2 && $rc -ne 3 ]] ||
        grep -q "file=\|terminate\|aborted\|Segmentation\|\.cc:[0-9]" <<<"$out"; then
        echo "BAD exit $rc: $ex $1 :: $(head -n 2 <<<"$out" | tr '\n' ' ' | cut -c1-240)"
    elif [[ $rc -eq 2 && $(wc -l <<<"$out") -ne 1 ]]; then
        echo "MULTI: $ex $1 :: $(head -n 3 <<<"$out" | tr '\n' ' ' | cut -c1-240)"
    elif [[ $rc -eq 2 && -n $left ]]; then
        echo "LEFT: $ex $1 :: refused but left $(echo $left) behind"
    else
        return
    fi
    found=$((found + 1))
}
values() { # values <kind>
    case $1 in
    time) echo "-1us 0s 1ns 1000s" ;;
    rate) echo "0bps 1bps 1e16bps" ;;
    bytes) echo "0B 1B 1000000000000B" ;;
    packets) echo "0p 1p 100000000p" ;;
    size) echo "0 1 -5 1e30" ;;
    number) echo "-1 0 1 0.5 1e300 4294967297" ;;
    esac
}
for tid in "$@"; do
    while IFS= read -r line; do
        name=${line%%=*}
        def=${line#*=[}
        def=${def%]}
        case $def in
        true | false) continue ;;
        +*s) kind="time" ;;
        *bps) kind=rate ;;
        *B) kind=bytes ;;
        *p) kind=packets ;;
        '' | *[!0-9.e+-]*) continue ;;
        *) kind=number ;;
        esac
        for v in $(values "$kind"); do
            try "--$name=$v"
        done
    done < <("$B/$ex" --PrintAttributes="$tid" 2>/dev/null | sed -n 's/^    --\(ns3::.*\)/\1/p')
done
while IFS= read -r line; do
    name=$(sed -E 's/^    --([a-zA-Z]+) \(.*/\1/' <<<"$line")
    typ=$(sed -E 's/^    --[a-zA-Z]+ \(([^)]*)\).*/\1/' <<<"$line")
    case $typ in
    time*) kind="time" ;;
    size*) kind=size ;;
    uint* | int* | number* | double*) kind=number ;;
    *) continue ;;
    esac
    for v in $(values "$kind"); do
        try "--$name=$v"
    done
done < <("$B/$ex" --help 2>/dev/null | grep -E "^    --[a-zA-Z]+ \(")
echo "fuzz: $runs runs, $found findings"
