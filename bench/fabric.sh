#!/usr/bin/env bash
# Fabric-mode bench (issue 13, item 5): CPU seconds per packet-hop, events per
# packet-hop and peak RSS of the 8 MiB permutation on the 128-host and 1024-host fat
# trees (OPS and REPS), in both fabric modes, run in alternation (ipv4, fast, fast,
# ipv4, ...) so that drifts of the machine's load cancel in the fast/ipv4 ratio.
#
#   bench/fabric.sh [-n PAIRS] [-b BUILD_DIR] [-m MSG_BYTES] [-t TOPOS] [-l LBS] [-p MPI_BIN]
#   bench/fabric.sh                          # reps128 and reps1024, ops and reps, 1 pair
#   bench/fabric.sh -n 3 -t reps128 -l reps  # the issue's 128-host REPS case, 3 pairs
#   bench/fabric.sh -t reps1024 -p ~/.cache/dcn-lb-mpi/build/dcn-transport-bench
#
# -p adds, for every topology and LB, a 2-rank MPI run (`mpirun -np 2 BIN --mpi`,
# ipv4 mode: ranks are joined by ns-3's remote channels) of an MPI build
# (tools/mpi-build.sh); its CPU is the sum over the ranks (user + sys of mpirun's
# children) and its RSS the largest rank's.  Paper-scale: the 1024-host 8 MiB case
# moves 16 M packet-hops per run (minutes per run); never run two of these at once.
#
# Prints one line per run and, per (topology, LB, mode), the medians, then the
# fast/ipv4 ratio (median over pairs).  Numbers are reported, never asserted.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PAIRS=1
BUILD="$REPO/build"
MSG=8388608
TOPOS="reps128 reps1024"
LBS="ops reps"
MPIBIN=""
usage() {
    echo "usage: $0 [-n PAIRS] [-b BUILD_DIR] [-m MSG_BYTES] [-t \"TOPOS\"] [-l \"LBS\"] [-p MPI_BIN]" >&2
    exit 2
}
while getopts "n:b:m:t:l:p:" opt; do
    case $opt in
    n) PAIRS=$OPTARG ;;
    b) BUILD=$OPTARG ;;
    m) MSG=$OPTARG ;;
    t) TOPOS=${OPTARG//,/ } ;;
    l) LBS=${OPTARG//,/ } ;;
    p) MPIBIN=$OPTARG ;;
    *) usage ;;
    esac
done
[[ $PAIRS =~ ^[1-9][0-9]*$ ]] || { echo "fabric: -n must be a positive integer, got '$PAIRS'" >&2; exit 2; }
[[ $MSG =~ ^[1-9][0-9]*$ ]] || { echo "fabric: -m must be a positive byte count, got '$MSG'" >&2; exit 2; }
for t in $TOPOS; do
    [[ $t == reps128 || $t == reps1024 || $t == small ]] ||
        { echo "fabric: -t '$t'; allowed fat trees reps128, reps1024, small" >&2; exit 2; }
done
BIN="$BUILD/dcn-transport-bench"
[[ -x $BIN ]] || { echo "fabric: $BIN not built (cmake --build $BUILD --target dcn-transport-bench)" >&2; exit 2; }
[[ -z $MPIBIN || -x $MPIBIN ]] || { echo "fabric: -p '$MPIBIN' is not an executable" >&2; exit 2; }
[[ -z $MPIBIN ]] || command -v mpirun >/dev/null || { echo "fabric: -p needs mpirun (tools/mpi-build.sh installs Open MPI)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || bash "$REPO/tools/install-deps.sh" time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DCNLB_FABRIC

# run <label> <cmd...>: prints "label cpu_s events hops rss_mb"
run() {
    local label=$1
    shift
    /usr/bin/time -f "%U %S %M" -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err" || {
        echo "fabric: run failed: $*" >&2
        tail -n 5 "$tmp/err" >&2
        exit 1
    }
    local b
    b=$(grep '^BENCH ' "$tmp/out" | tail -n1)
    [[ $b =~ events=([0-9]+)\ packet_hops=([0-9]+) ]] || { echo "fabric: no BENCH line from $*" >&2; exit 1; }
    read -r u s m <"$tmp/time"
    echo "$label $(echo "$u + $s" | bc -l) ${BASH_REMATCH[1]} ${BASH_REMATCH[2]} $(echo "scale=1; $m / 1024" | bc -l)"
}

printf '%-9s %-5s %-6s %4s %10s %12s %11s %14s %14s %11s\n' topo lb mode pair cpu_s events packet_hops cpu_us_per_hop events_per_hop peak_rss_mb
results="$tmp/results"
: >"$results"
for topo in $TOPOS; do
    for lb in $LBS; do
        args=(--topo="$topo" --lb="$lb" --msgBytes="$MSG")
        for ((p = 1; p <= PAIRS; ++p)); do
            if ((p % 2)); then order="ipv4 fast"; else order="fast ipv4"; fi
            modes=$order
            [[ -n $MPIBIN ]] && modes="$modes mpi2"
            for mode in $modes; do
                if [[ $mode == mpi2 ]]; then
                    line=$(run x mpirun --allow-run-as-root --oversubscribe -np 2 "$MPIBIN" --mpi "${args[@]}")
                else
                    line=$(run x "$BIN" --fabric="$mode" "${args[@]}")
                fi
                read -r _ cpu ev hops rss <<<"$line"
                cph=$(echo "scale=4; $cpu * 1000000 / $hops" | bc -l)
                eph=$(echo "scale=4; $ev / $hops" | bc -l)
                printf '%-9s %-5s %-6s %4d %10.2f %12d %11d %14.3f %14.3f %11.1f\n' \
                    "$topo" "$lb" "$mode" "$p" "$cpu" "$ev" "$hops" "$cph" "$eph" "$rss"
                echo "$topo $lb $mode $p $cph $eph $rss" >>"$results"
            done
        done
    done
done

median() { sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
echo
printf '%-9s %-5s %-6s %14s %14s %11s %16s\n' topo lb mode cpu_us_per_hop events_per_hop peak_rss_mb "vs ipv4 (median)"
for topo in $TOPOS; do
    for lb in $LBS; do
        for mode in ipv4 fast mpi2; do
            grep -q "^$topo $lb $mode " "$results" || continue
            c=$(awk -v t="$topo" -v l="$lb" -v m="$mode" '$1==t && $2==l && $3==m {print $5}' "$results" | median)
            e=$(awk -v t="$topo" -v l="$lb" -v m="$mode" '$1==t && $2==l && $3==m {print $6}' "$results" | median)
            r=$(awk -v t="$topo" -v l="$lb" -v m="$mode" '$1==t && $2==l && $3==m {print $7}' "$results" | median)
            ratio=$(awk -v t="$topo" -v l="$lb" -v m="$mode" '
                $1==t && $2==l && $3=="ipv4" {b[$4]=$5} $1==t && $2==l && $3==m {x[$4]=$5}
                END {for (p in x) if (p in b) print x[p] / b[p]}' "$results" | median)
            printf '%-9s %-5s %-6s %14.3f %14.3f %11.1f %16.3f\n' "$topo" "$lb" "$mode" "$c" "$e" "$r" "$ratio"
        done
    done
done
