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
#   on every run; file mtimes are preserved, so unchanged files are not rebuilt.
# * Only the modules we use (plus their dependencies, resolved by ns-3) are enabled,
#   so no header of an installed /usr/include/ns3 can leak in.
set -euo pipefail

VERSION=${1:?usage: $0 <ns-3 version, e.g. 3.37>}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${DCNLB_CI_CACHE:-$HOME/.cache/dcn-lb-ci}
JOBS=${DCNLB_JOBS:-2}
MODULES="core;network;internet;point-to-point;traffic-control;applications;flow-monitor;csma;bridge;dcn-lb"

case "$VERSION" in
3.37) SUITE=bookworm ;;
3.43) SUITE=trixie ;;
*) echo "ns3-intree: unsupported version $VERSION (3.37 or 3.43)" >&2; exit 2 ;;
esac

log() { echo "[ns3-intree $VERSION] $*"; }

# ---------------------------------------------------------------- fetch source
fetch_source() {
    local dir=$CACHE/$SUITE
    local orig
    orig=$(ls "$dir"/ns3_"$VERSION"*.orig.tar.* 2>/dev/null | head -n1 || true)
    if [[ -n "$orig" ]]; then
        echo "$orig"
        return
    fi
    log "downloading the ns3 source package from Debian $SUITE" >&2
    mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial"
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $SUITE main" \
        >"$dir/apt/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
        -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache" -o Debug::NoLocking=1
        -o APT::Sandbox::User=root)
    apt-get "${opts[@]}" update >&2
    (cd "$dir" && apt-get "${opts[@]}" source --download-only ns3) >&2 || {
        echo "ns3-intree: could not download the ns3 $VERSION source package from Debian $SUITE" >&2
        return 1
    }
    ls "$dir"/ns3_"$VERSION"*.orig.tar.* | head -n1
}

ORIG=$(fetch_source)
SRCROOT=$CACHE/src-$VERSION
NS3=$(ls -d "$SRCROOT"/ns-allinone-*/ns-"$VERSION" "$SRCROOT"/ns-"$VERSION" 2>/dev/null | head -n1 || true)
if [[ -z "$NS3" || ! -f "$NS3/CMakeLists.txt" ]]; then
    log "extracting $(basename "$ORIG")"
    rm -rf "$SRCROOT" && mkdir -p "$SRCROOT"
    tar -xf "$ORIG" -C "$SRCROOT"
    NS3=$(ls -d "$SRCROOT"/ns-allinone-*/ns-"$VERSION" "$SRCROOT"/ns-"$VERSION" 2>/dev/null | head -n1 || true)
    if [[ -z "$NS3" || ! -f "$NS3/CMakeLists.txt" ]]; then
        echo "ns3-intree: no ns-$VERSION tree with a CMakeLists.txt in $(basename "$ORIG")" >&2
        exit 1
    fi
fi
log "ns-3 tree: $NS3"

# ------------------------------------------------------- re-sync our sources
DEST=$NS3/contrib/dcn-lb
rm -rf "$DEST.new" && mkdir -p "$DEST.new"
(cd "$REPO" && tar -cf - --exclude=./.git --exclude='./build*' --exclude=./cmake-build-* .) | tar -xf - -C "$DEST.new"
rm -rf "$DEST" && mv "$DEST.new" "$DEST"
log "synced $REPO -> $DEST ($(find "$DEST" -name '*.cc' | wc -l) .cc files)"

# --------------------------------------------------------- configure + build
cd "$NS3"
# ns-3 writes build/include/ns3/<h>.h stubs (#include "<abs path>") only at configure
# time and never rewrites existing ones: drop ours before (re-)configuring, so that
# added, moved or removed headers are picked up.
{ grep -l "contrib/dcn-lb/" build/include/ns3/*.h 2>/dev/null || true; } | xargs -r rm -f
rm -f build/include/ns3/dcn-lb-module.h
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
