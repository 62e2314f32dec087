#!/usr/bin/env bash
# TCP path-shim bench (issue 17 "Performance": the shim must not cost measurably more than
# plain TCP per packet).  The same ns-3 TCP (DCTCP) workload, 128-host hermes-sim, web
# search at --load of the host link rate, --duration of arrivals:
#
#  part "global": plain ns-3 TCP (ns3::DcnTcpTransport::PathShim=false: no shim, segments
#    go from TcpL4Protocol straight to IPv4) against TCP through the shim (PathShim=true,
#    UDP encapsulation, ECMP path selector), both on ns-3's Ipv4GlobalRouting (IPv4 fabric,
#    first route: the packets of both take the same paths), --lb=ecmp;
#  part "ours": the same pair on our switches (the default fast fabric, ECMP): the switches
#    hash plain TCP's 5-tuple and the shim's EV, so the flows take different paths (the
#    same hop count, other collisions), but the switches cost 3x less per hop than ns-3's
#    IPv4 forwarding, so the hosts' share (and the shim's) is larger;
#  part "lb": shim + ECMP against shim + Hermes on our switches (the default fabric), the
#    Hermes-vs-ECMP row of doc/hermes.rst.
#
# Each part runs alternating pairs (a b, b a, a b, ...) so that drifts of the machine's
# load cancel in the ratios; one simulation at a time.
#
#   bench/tcp-shim.sh [-n PAIRS] [-b BUILD_DIR] [-d DURATION] [-l LOAD] [-p "PARTS"]
#   bench/tcp-shim.sh                      # 3 pairs of each part, 3ms of arrivals, load 0.6
#   bench/tcp-shim.sh -n 5 -d 10ms -p global,ours
#
# Per run (from /usr/bin/time and the example's "BENCH events=<n> packet_hops=<n>" line):
# user CPU seconds, wall seconds, events, packet hops, user CPU microseconds per packet
# hop, events per user CPU second, peak RSS (MB), flows completed.  Per pair: the ratios
# shim/plain (parts global, ours) and hermes/ecmp (part lb) of user CPU, CPU per hop and peak RSS;
# then the medians over the pairs.  Numbers are reported, never asserted.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PAIRS=3
BUILD="$REPO/build"
DURATION=3ms
LOAD=0.6
PARTS="global ours lb"
usage() {
    echo "usage: $0 [-n PAIRS] [-b BUILD_DIR] [-d DURATION] [-l LOAD] [-p \"PARTS\"]" >&2
    exit 2
}
while getopts "n:b:d:l:p:" opt; do
    case $opt in
    n) PAIRS=$OPTARG ;;
    b) BUILD=$OPTARG ;;
    d) DURATION=$OPTARG ;;
    l) LOAD=$OPTARG ;;
    p) PARTS=${OPTARG//,/ } ;;
    *) usage ;;
    esac
done
[[ $# -eq $((OPTIND - 1)) ]] || usage
[[ $PAIRS =~ ^[1-9][0-9]*$ ]] || { echo "tcp-shim: -n must be a positive integer, got '$PAIRS'" >&2; exit 2; }
for p in $PARTS; do
    [[ $p == global || $p == ours || $p == lb ]] ||
        { echo "tcp-shim: -p '$p'; allowed parts: global, ours, lb" >&2; exit 2; }
done
BIN="$BUILD/dcn-lb-compare"
[[ -x $BIN ]] || { echo "tcp-shim: $BIN not built (cmake --build $BUILD --target dcn-lb-compare)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || bash "$REPO/tools/install-deps.sh" time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DCNLB_FABRIC

COMMON=(--topo=hermes-sim --transport=tcp --workload=cdf --cdf=websearch --load="$LOAD"
    --duration="$DURATION" --stopTime=1s --quiet)
GLOBAL=(--lb=ecmp --fabric=ipv4 --ns3::DcnGraphTopology::Routing=global)
# args_of <part> <variant>: the arguments of a run
args_of() {
    case $1/$2 in
    global/plain) echo "${COMMON[*]} ${GLOBAL[*]} --ns3::DcnTcpTransport::PathShim=false" ;;
    global/shim) echo "${COMMON[*]} ${GLOBAL[*]} --ns3::DcnTcpTransport::PathShim=true" ;;
    ours/plain) echo "${COMMON[*]} --lb=ecmp --ns3::DcnTcpTransport::PathShim=false" ;;
    ours/shim) echo "${COMMON[*]} --lb=ecmp --ns3::DcnTcpTransport::PathShim=true" ;;
    lb/ecmp) echo "${COMMON[*]} --lb=ecmp" ;;
    lb/hermes) echo "${COMMON[*]} --lb=hermes" ;;
    esac
}
variants() { if [[ $1 == lb ]]; then echo "ecmp hermes"; else echo "plain shim"; fi; }

# run <part> <variant>: prints "user_s wall_s events hops rss_mb flows"
run() {
    local a
    read -r -a a <<<"$(args_of "$1" "$2")"
    /usr/bin/time -f "%U %e %M" -o "$tmp/time" "$BIN" "${a[@]}" >"$tmp/out" 2>"$tmp/err" || {
        echo "tcp-shim: run failed: $BIN ${a[*]}" >&2
        tail -n 5 "$tmp/err" >&2
        exit 1
    }
    local b f
    b=$(grep '^BENCH ' "$tmp/out" | tail -n1)
    [[ $b =~ events=([0-9]+)\ packet_hops=([0-9]+) ]] || { echo "tcp-shim: no BENCH line from $BIN ${a[*]}" >&2; exit 1; }
    f=$(awk '/^flows completed/ {print $3}' "$tmp/out")
    read -r u w m <"$tmp/time"
    echo "$u $w ${BASH_REMATCH[1]} ${BASH_REMATCH[2]} $(echo "scale=1; $m / 1024" | bc -l) $f"
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

results="$tmp/results"
: >"$results"
echo "# $BIN ${COMMON[*]}"
echo "#   global: ${GLOBAL[*]}; ours: --lb=ecmp; lb: --lb=ecmp|hermes;" \
    "plain: --ns3::DcnTcpTransport::PathShim=false, shim: PathShim=true"
printf '%-6s %-7s %4s %8s %8s %10s %10s %12s %12s %8s %6s\n' part variant pair user_s wall_s events packet_hops cpu_us_per_hop events_per_s peak_mb flows
for part in $PARTS; do
    read -r A B <<<"$(variants "$part")"
    for ((p = 1; p <= PAIRS; ++p)); do
        if ((p % 2)); then order="$A $B"; else order="$B $A"; fi
        for v in $order; do
            read -r u w ev hops rss flows <<<"$(run "$part" "$v")"
            cph=$(echo "scale=4; $u * 1000000 / $hops" | bc -l)
            eps=$(echo "scale=0; $ev / $u" | bc -l)
            printf '%-6s %-7s %4d %8.2f %8.2f %10d %10d %12.3f %12d %8.1f %6d\n' \
                "$part" "$v" "$p" "$u" "$w" "$ev" "$hops" "$cph" "$eps" "$rss" "$flows"
            echo "$part $v $p $u $cph $rss $w $eps" >>"$results"
        done
    done
done

echo
printf '%-6s %-14s %4s %10s %14s %10s\n' part ratio pair user_cpu cpu_per_hop peak_rss
for part in $PARTS; do
    read -r A B <<<"$(variants "$part")"
    for ((p = 1; p <= PAIRS; ++p)); do
        awk -v part="$part" -v a="$A" -v b="$B" -v p="$p" '
            $1==part && $3==p && $2==a {ua=$4; ca=$5; ra=$6}
            $1==part && $3==p && $2==b {ub=$4; cb=$5; rb=$6}
            END {printf "%-6s %-14s %4d %10.3f %14.3f %10.3f\n", part, b "/" a, p, ub/ua, cb/ca, rb/ra}' \
            "$results" | tee -a "$tmp/ratios"
    done
    for col in 4 5 6; do
        awk -v part="$part" -v c=$col '$1==part {print $c}' "$tmp/ratios" | median >"$tmp/m$col"
    done
    printf '%-6s %-14s %4s %10.3f %14.3f %10.3f\n' "$part" "$B/$A" median "$(cat "$tmp/m4")" "$(cat "$tmp/m5")" "$(cat "$tmp/m6")"
done

echo
printf '%-6s %-7s %8s %8s %12s %12s %8s   (medians over the pairs)\n' part variant user_s wall_s cpu_us_per_hop events_per_s peak_mb
for part in $PARTS; do
    for v in $(variants "$part"); do
        m() { awk -v part="$part" -v v="$v" -v c="$1" '$1==part && $2==v {print $c}' "$results" | median; }
        printf '%-6s %-7s %8.2f %8.2f %12.3f %12d %8.1f\n' "$part" "$v" "$(m 4)" "$(m 7)" "$(m 5)" "$(m 8)" "$(m 6)"
    done
done
