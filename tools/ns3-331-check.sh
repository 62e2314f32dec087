#!/usr/bin/env bash
# dcn-lb against waf-era ns-3 3.31 (Debian bullseye): compile check.
#
# Debian's bullseye ns3 source package is not downloadable here (404), so no waf
# build (wscript-compat/wscript) can run.  What this script verifies instead: every
# source file (model/, helper/, test/, gtest/ excluded, examples/) compiles
# (g++ -fsyntax-only, C++17, DCNLB_NS3_MINOR=31) against the ns-3 3.31 headers of
# bullseye's libns3-dev binary package, with our headers flattened into ns3/ as waf
# does.  No header of the host's ns-3 3.37 (/usr/include/ns3) may be used.
# Nothing is linked or run (bullseye's libns3-3v5 needs openmpi3/python3.9/gsl25).
#   tools/ns3-331-check.sh      -> last line "ns-3 3.31 compile check: <n> files OK, <m> failed"
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${DCNLB_CI_CACHE:-$HOME/.cache/dcn-lb-ci}
JOBS=${DCNLB_JOBS:-2}
BASE=$CACHE/bullseye-bin
DEB=libns3-dev_3.31+dfsg-3_amd64.deb
if [[ ! -f $BASE/root/usr/include/ns3.31/ns3/core-module.h ]]; then
    mkdir -p "$BASE/debs"
    if [[ ! -f $BASE/debs/$DEB ]]; then
        echo "[ns3-3.31] downloading $DEB"
        curl -sSf -o "$BASE/debs/$DEB.part" "http://deb.debian.org/debian/pool/main/n/ns3/$DEB"
        mv "$BASE/debs/$DEB.part" "$BASE/debs/$DEB"
    fi
    rm -rf "$BASE/root" && dpkg -x "$BASE/debs/$DEB" "$BASE/root"
fi
NS3INC=$BASE/root/usr/include/ns3.31
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/include/ns3"
find "$REPO/model" "$REPO/helper" -name '*.h' -exec cp {} "$WORK/include/ns3/" \;
mapfile -t srcs < <(cd "$REPO" && find model helper test examples -name '*.cc' | sort)
export REPO WORK NS3INC
check() {
    local f=$1
    local log=$WORK/$(echo "$f" | tr / _).log
    local res=$WORK/$(echo "$f" | tr / _).res
    exec >"$res"
    if g++ -std=c++17 -fsyntax-only -H -DNS3_LOG_ENABLE -DNS3_ASSERT_ENABLE -DDCNLB_NS3_MINOR=31 \
        -DDCNLB_DATA_DIR="\"$REPO/data\"" -I"$WORK/include" -I"$NS3INC" -I/usr/include/libxml2 \
        "$REPO/$f" >"$log" 2>&1; then
        if grep -q '^\.* /usr/include/ns3/' "$log"; then
            echo "LEAK $f: uses 3.37 header $(grep -m1 '^\.* /usr/include/ns3/' "$log" | sed 's/^\.* //')"
        else
            echo "OK   $f"
        fi
    else
        echo "FAIL $f"
        grep -E "error:" "$log" | grep -v '^\.' | sort -u | head -n 4 | sed 's/^/       /'
    fi
}
export -f check
printf '%s\n' "${srcs[@]}" | xargs -P "$JOBS" -I{} bash -c 'check {}'
for f in "${srcs[@]}"; do cat "$WORK/$(echo "$f" | tr / _).res"; done >"$WORK/result"
grep -v '^OK' "$WORK/result" || true
# model/ (the library core) must compile on 3.31; helper/, test/ and examples/ are
# reported (they use ns-3 >= 3.35 conveniences: lambdas in Simulator::Schedule and
# Callback, see wscript-compat/README.md).
req_ok=$(grep -c '^OK   model/' "$WORK/result" || true)
req_bad=$(grep -c '^\(FAIL\|LEAK\) model/' "$WORK/result" || true)
oth_ok=$(grep '^OK' "$WORK/result" | grep -vc ' model/' || true)
oth_bad=$(grep '^\(FAIL\|LEAK\)' "$WORK/result" | grep -vc ' model/' || true)
echo "ns-3 3.31 compile check: model/ $req_ok OK, $req_bad failed (required) | helper/test/examples $oth_ok OK, $oth_bad failed (reported)"
[[ $req_bad -eq 0 ]]
