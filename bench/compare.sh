#!/usr/bin/env bash
# Old build vs new build, run in alternation: CPU per packet-hop, events per
# packet-hop, peak RSS, and the new/old ratio (median over pairs).
#
#   bench/compare.sh [-n PAIRS] [-a "CMAKE ARGS"] [-b "CMAKE ARGS"] [-k] OLD NEW <example> [args...]
#   bench/compare.sh -n 3 e29f217 HEAD dcn-transport-bench --topo=reps128 --lb=reps
#   bench/compare.sh -n 5 -a -DDCNLB_ALLOCATOR=system -b -DDCNLB_ALLOCATOR=tcmalloc \
#       HEAD HEAD dcn-transport-bench --topo=reps128 --lb=reps --msgBytes=1048576
#
# OLD and NEW are git revisions (anything `git rev-parse` takes; WORKTREE = the
# current working tree, uncommitted changes included).  Each is exported into
# /tmp/dcn-lb-bench/<sha>[-<cmake args hash>]/src (git archive; the repository's
# worktree list is not touched) and built there in Release (only the example
# target, through ccache when installed); -a / -b add CMake arguments to the old /
# new build, so one revision with two build options compares the options.
# Then the pairs run one after the other (old, new, old, new, ...; the order inside
# a pair alternates to cancel drifts in machine load), each under /usr/bin/time.
#
# Per run: CPU seconds (user + sys) of the whole process, events and packet_hops
# from the example's last "BENCH events=<n> packet_hops=<n>" line (bench/README.md).
# Printed per run and summarised as medians:
#   cpu_us_per_hop  = CPU microseconds / packet_hops
#   events_per_hop  = events / packet_hops
#   peak_rss_mb     = maximum resident set size
# and the ratio new/old of each, the median over the pairs (< 1: new is cheaper).
# Runs must print identical stdout (apart from timing fields: wall/S/perS numbers
# are masked) unless -d is given; a difference is reported.
# -k keeps the exported trees and builds (default: kept; -c cleans them at the end).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PAIRS=3
ACMAKE=""
BCMAKE=""
CLEAN=0
ALLOWDIFF=0
usage() {
    echo "usage: $0 [-n PAIRS] [-a CMAKE_ARGS] [-b CMAKE_ARGS] [-c] [-d] OLD NEW <example> [args...]" >&2
    exit 2
}
while getopts "n:a:b:cdk" opt; do
    case $opt in
    n) PAIRS=$OPTARG ;;
    a) ACMAKE=$OPTARG ;;
    b) BCMAKE=$OPTARG ;;
    c) CLEAN=1 ;;
    d) ALLOWDIFF=1 ;;
    k) CLEAN=0 ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -ge 3 ]] || usage
[[ $PAIRS =~ ^[1-9][0-9]*$ ]] || { echo "compare: -n must be a positive integer, got '$PAIRS'" >&2; exit 2; }
OLD=$1
NEW=$2
EX=$3
shift 3
[[ -x /usr/bin/time ]] || bash "$REPO/tools/install-deps.sh" time
ROOT=${DCNLB_BENCH_DIR:-/tmp/dcn-lb-bench}
mkdir -p "$ROOT"
# Trees differ only in their location: let ccache share objects between them.
export CCACHE_BASEDIR=$ROOT

# prepare <rev> <cmake args> -> prints the binary path
prepare() {
    local rev=$1 cargs=$2 sha dir tag
    if [[ $rev == WORKTREE ]]; then
        sha=worktree
    else
        sha=$(git -C "$REPO" rev-parse --verify --quiet "$rev^{commit}") ||
            { echo "compare: '$rev' is not a git revision of $REPO" >&2; return 2; }
        sha=${sha:0:12}
    fi
    tag=$sha
    [[ -z $cargs ]] || tag=$sha-$(printf '%s' "$cargs" | md5sum | cut -c1-8)
    dir=$ROOT/$tag
    if [[ $sha == worktree ]]; then
        rm -rf "$dir/src" && mkdir -p "$dir/src"
        (cd "$REPO" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$dir/src" 2>/dev/null)
    elif [[ ! -f $dir/src/CMakeLists.txt ]]; then
        rm -rf "$dir" && mkdir -p "$dir/src"
        git -C "$REPO" archive "$sha" | tar -x -C "$dir/src"
    fi
    # shellcheck disable=SC2086
    cmake -S "$dir/src" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release $cargs >"$dir/configure.log" 2>&1 ||
        { tail -n 20 "$dir/configure.log" >&2; echo "compare: configure of $rev failed" >&2; return 1; }
    cmake --build "$dir/build" -j"$(nproc)" --target "$EX" >"$dir/build.log" 2>&1 ||
        { grep -m5 -E "error|No rule" "$dir/build.log" >&2; echo "compare: build of $EX at $rev failed ($dir/build.log)" >&2; return 1; }
    echo "$dir/build/$EX"
}

echo "compare: building $OLD ${ACMAKE:+($ACMAKE) }and $NEW ${BCMAKE:+($BCMAKE) }in $ROOT" >&2
BIN_A=$(prepare "$OLD" "$ACMAKE")
BIN_B=$(prepare "$NEW" "$BCMAKE")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# run <side> <bin> -> "cpu_s events hops rss_kb"; stdout kept in $tmp/<side>.out
run() {
    local side=$1 bin=$2
    shift 2
    /usr/bin/time -f "%U %S %M" -o "$tmp/time" "$bin" "$@" >"$tmp/$side.out" 2>"$tmp/$side.err" || {
        echo "compare: $bin failed:" >&2
        tail -n 10 "$tmp/$side.err" >&2
        return 1
    }
    local bl ev hops
    bl=$(grep '^BENCH ' "$tmp/$side.out" | tail -n1 || true)
    ev=$(sed -n 's/.*[ ]events=\([0-9]*\).*/\1/p' <<<"$bl")
    hops=$(sed -n 's/.*[ ]packet_hops=\([0-9]*\).*/\1/p' <<<"$bl")
    [[ -n $ev && -n $hops && $hops -gt 0 ]] ||
        { echo "compare: $bin printed no 'BENCH events=<n> packet_hops=<n>' line" >&2; return 1; }
    read -r u s m <"$tmp/time"
    echo "$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f", u + s }') $ev $hops $m"
}
mask() { sed -E 's/([A-Za-z_]*([Ww]all|PerS|perS|_s|S)=)[0-9.e+-]+/\1#/g; s/[0-9.]+ ?s (CPU|wall)/# \1/g' "$1"; }

res=$tmp/results
: >"$res"
printf '%-5s %-4s %9s %12s %12s %14s %12s %11s\n' pair side cpu_s events packet_hops cpu_us_per_hop events_per_hop peak_rss_mb
for ((i = 1; i <= PAIRS; i++)); do
    if ((i % 2)); then order="A B"; else order="B A"; fi
    for side in $order; do
        if [[ $side == A ]]; then bin=$BIN_A; else bin=$BIN_B; fi
        # Extra args go after the binary: run() passes "$@" through.
        r=$(run "$side" "$bin" "$@")
        read -r cpu ev hops rss <<<"$r"
        echo "$i $side $cpu $ev $hops $rss" >>"$res"
        awk -v i="$i" -v sd="$side" -v c="$cpu" -v e="$ev" -v h="$hops" -v m="$rss" 'BEGIN {
            printf "%-5s %-4s %9.3f %12d %12d %14.3f %12.3f %11.1f\n", i, (sd == "A" ? "old" : "new"), c, e, h,
                c * 1e6 / h, e / h, m / 1024 }'
    done
    if [[ $ALLOWDIFF -eq 0 ]] && ! cmp -s <(mask "$tmp/A.out") <(mask "$tmp/B.out"); then
        echo "compare: NOTE pair $i: old and new print different results (timing fields masked); first differences:" >&2
        diff <(mask "$tmp/A.out") <(mask "$tmp/B.out") | head -n 6 >&2 || true
    fi
done

awk -v pairs="$PAIRS" '
function median(a, n,    i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ k = $1 SUBSEP $2; cpu[k] = $3; ev[k] = $4; hop[k] = $5; rss[k] = $6 }
END {
    for (i = 1; i <= pairs; i++) {
        a = i SUBSEP "A"; b = i SUBSEP "B"
        ca[i] = cpu[a] * 1e6 / hop[a]; cb[i] = cpu[b] * 1e6 / hop[b]
        ea[i] = ev[a] / hop[a];         eb[i] = ev[b] / hop[b]
        ma[i] = rss[a] / 1024;          mb[i] = rss[b] / 1024
        rc[i] = cb[i] / ca[i]; re[i] = eb[i] / ea[i]; rm[i] = mb[i] / ma[i]
    }
    printf "\n%-16s %12s %12s %22s\n", "metric (median)", "old", "new", "new/old (median pair)"
    printf "%-16s %12.3f %12.3f %22.3f\n", "cpu_us_per_hop", median(ca, pairs), median(cb, pairs), median(rc, pairs)
    printf "%-16s %12.3f %12.3f %22.3f\n", "events_per_hop", median(ea, pairs), median(eb, pairs), median(re, pairs)
    printf "%-16s %12.1f %12.1f %22.3f\n", "peak_rss_mb", median(ma, pairs), median(mb, pairs), median(rm, pairs)
}' "$res"

if [[ $CLEAN -eq 1 ]]; then
    for d in "$(dirname "$(dirname "$BIN_A")")" "$(dirname "$(dirname "$BIN_B")")"; do rm -rf "$d"; done
fi
