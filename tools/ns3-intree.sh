#!/usr/bin/env bash
# In-tree build of dcn-lb inside a full ns-3 (CMake era) source tree, then run our
# TestSuites with ns-3's own test.py.
#
#   tools/ns3-intree.sh [--suite-filter REGEX] 3.37
#
# * ns-3 sources come from Debian (`apt-get source ns3` through a private apt state
#   with a deb-src line for the suite that ships the version); everything is cached
#   under $DCNLB_CI_CACHE (default $HOME/.cache/dcn-lb-ci).
# * Our CURRENT working tree (not a stale copy) is re-synced into contrib/dcn-lb
#   on every run, by content: unchanged files keep their mtime and are not rebuilt.
# * Only the modules we use (plus their dependencies, resolved by ns-3) are enabled,
#   so no header of an installed /usr/include/ns3 can leak in.
set -euo pipefail

VERSION=${1:?usage: $0 <ns-3 version, e.g. 3.37>}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${DCNLB_CI_CACHE:-$HOME/.cache/dcn-lb-ci}
JOBS=${DCNLB_JOBS:-2}
# shellcheck source=tools/ns3-src-lib.sh
source "$REPO/tools/ns3-src-lib.sh"
MODULES="core;network;internet;point-to-point;traffic-control;applications;flow-monitor;csma;bridge;dcn-lb"

SUITE=$(ns3_suite_of "$VERSION") || {
    echo "ns3-intree: unsupported version $VERSION (3.37 or 3.43)" >&2
    exit 2
}

log() { echo "[ns3-intree $VERSION] $*"; }

ORIG=$(ns3_fetch_source "$VERSION" "$SUITE" "$CACHE/$SUITE") || {
    echo "ns3-intree: no ns-3 $VERSION source" >&2
    exit 1
}
NS3=$(ns3_extract "$ORIG" "$CACHE/src-$VERSION" "$VERSION") || {
    echo "ns3-intree: extracting $ORIG failed" >&2
    exit 1
}
log "ns-3 tree: $NS3"
ns3_sync_module "$REPO" "$NS3"

# --------------------------------------------------------- configure + build
cd "$NS3"
ns3_drop_module_headers "$NS3"
# Tests and examples of the other modules are filtered out (they are not ours and
# would triple the build time); test.py and the test-runner still work.
log "configuring (modules: $MODULES)"
if ! ./ns3 configure -G Ninja --enable-tests --enable-examples --enable-modules="$MODULES" \
    --filter-module-examples-and-tests=dcn-lb --disable-python-bindings --disable-werror \
    >"$NS3/configure.log" 2>&1; then
    tail -n 40 "$NS3/configure.log"
    echo "ns3-intree: ns-3 $VERSION configure FAILED (log: $NS3/configure.log)" >&2
    exit 1
fi
grep -E "dcn-lb: in-tree|Modules configured" -A4 "$NS3/configure.log" | head -n 8
log "building with cmake --build cmake-cache -j$JOBS"
start=$(date +%s)
if ! cmake --build cmake-cache -j"$JOBS" >"$NS3/build.log" 2>&1; then
    grep -v "^\[[0-9]*/[0-9]*\] " "$NS3/build.log" | tail -n 80
    echo "ns3-intree: ns-3 $VERSION in-tree BUILD FAILED (full log: $NS3/build.log)" >&2
    exit 1
fi
log "build took $(($(date +%s) - start)) s"

# ---------------------------------------------------------- run our suites
runner=$(ls build/utils/ns"$VERSION"-test-runner* | head -n1)
mapfile -t suites < <("$runner" --list | sed 's/^ *//' | grep '^dcn-lb' | sort)
if [[ ${#suites[@]} -eq 0 ]]; then
    echo "ns3-intree: no dcn-lb TestSuite is registered in ns-3's test-runner" >&2
    exit 1
fi
log "running ${#suites[@]} dcn-lb suites with test.py: ${suites[*]}"
pass=0
fail=0
for s in "${suites[@]}"; do
    status=ok
    out=$(./test.py --no-build -s "$s" 2>&1 | sed 's/\x1b\[[0-9;]*m//g') || status=failed
    echo "$out" | grep -E "(PASS|FAIL|CRASH|SKIP|VALGR)[^:]*: TestSuite " || true
    if [[ $status == ok ]] && echo "$out" | grep -q "^1 of 1 tests passed"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "$out" | tail -n 30
    fi
done
echo "ns-3 $VERSION in-tree test.py: $pass passed, $fail failed (of ${#suites[@]} dcn-lb suites)"
[[ $fail -eq 0 ]]
