#!/usr/bin/env bash
# dcn-lb against a newer ns-3 from Debian's BINARY packages, in a private sysroot.
#
#   tools/ns3-sysroot.sh 3.43 [test-runner args]   # Debian trixie's ns-3 3.43
#   tools/ns3-sysroot.sh 3.48 [test-runner args]   # Debian sid's ns-3 3.48
#
# Debian's trixie and sid *source* packages of ns3 are listed in the Sources indexes
# but their files are not served by deb.debian.org from this network (404), so no
# in-tree build of these versions is possible here.  The strongest substitute, done
# by this script: a standalone build of dcn-lb (library, examples, test runner,
# gtest) against the suite's binary ns-3 packages unpacked into a private sysroot,
# then running every ns-3 TestSuite and every GoogleTest test with that suite's own
# dynamic loader, libc, libstdc++ and ns-3 libraries.
#
# The packages are libns3.<minor> and ns3 plus their run-time dependency closure
# (resolved by apt in a private state directory, nothing is installed on the host),
# and libns3-dev without its dependencies (headers and CMake package only).
# Cached under $DCNLB_CI_CACHE (default $HOME/.cache/dcn-lb-ci)/<suite>-bin; the
# build goes to build-<version>/ ($DCNLB_SYSROOT_BUILD overrides).
# Compiled with the host (bookworm) g++ 12 against the new headers (C++20); linked
# with --allow-shlib-undefined because the new libns3 needs newer glibc/libstdc++
# symbol versions than bookworm's; at run time the suite's ld.so/libc/libstdc++ run.
# The examples use the system malloc here (a host allocator would mix host and
# sysroot libraries; only the test runner and gtest run anyway).
# Last line: "ns-3 <ver> (sysroot): ns-3 suites <p> passed, <f> failed, gtest <p> passed, <f> failed".
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VER=${1:-}
case $VER in
3.43) SUITE=trixie ;;
3.48) SUITE=sid ;;
*)
    echo "ns3-sysroot: first argument must be an ns-3 version, 3.43 (Debian trixie) or 3.48 (Debian sid); got '${VER}'" >&2
    exit 2
    ;;
esac
shift
MINOR=${VER#3.}
CACHE=${DCNLB_CI_CACHE:-$HOME/.cache/dcn-lb-ci}
JOBS=${DCNLB_JOBS:-2}
BASE=$CACHE/$SUITE-bin
SYSROOT=$BASE/sysroot
BUILD=${DCNLB_SYSROOT_BUILD:-$REPO/build-$VER}
TAG="ns-3 $VER (sysroot)"
log() { echo "[ns3-$VER-sysroot] $*"; }

if [[ ! -f $SYSROOT/.complete ]]; then
    A=$BASE/apt
    mkdir -p "$A/lists/partial" "$A/cache/archives/partial"
    rm -rf "$BASE/debs" && mkdir -p "$BASE/debs"
    echo "deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $SUITE main" \
        >"$A/sources.list"
    opts=(-o "Dir::Etc::SourceList=$A/sources.list" -o Dir::Etc::SourceParts=/dev/null
        -o "Dir::State::Lists=$A/lists" -o "Dir::Cache=$A/cache" -o Dir::State::status=/dev/null
        -o Debug::NoLocking=1 -o APT::Sandbox::User=root -o APT::Architecture=amd64 -o APT::Architectures=amd64)
    apt-get "${opts[@]}" update >/dev/null
    # Run-time closure of the ns-3 libraries (no recommends; virtual packages "<...>" skipped).
    mapfile -t PKGS < <(apt-cache "${opts[@]}" depends --recurse --no-recommends --no-suggests \
        --no-conflicts --no-breaks --no-replaces --no-enhances "libns3.$MINOR" ns3 |
        grep -v -e '^ ' -e '^<' | sort -u)
    PKGS+=(libns3-dev) # headers + CMake package; its Depends (g++ ...) are not wanted
    log "downloading $SUITE binary packages: ${PKGS[*]}"
    (cd "$BASE/debs" && apt-get "${opts[@]}" download "${PKGS[@]}" >/dev/null)
    rm -rf "$SYSROOT" && mkdir -p "$SYSROOT"
    for d in "$BASE"/debs/*.deb; do
        dpkg -x "$d" "$SYSROOT"
    done
    touch "$SYSROOT/.complete"
fi
LIBDIR=$SYSROOT/usr/lib/x86_64-linux-gnu
LDSO=$LIBDIR/ld-linux-x86-64.so.2
[[ -x $LDSO ]] || LDSO=$SYSROOT/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
nlib=$(find "$LIBDIR" -maxdepth 1 -name "libns3*-*.so*" | wc -l)
[[ $nlib -gt 0 ]] || { echo "$TAG: no ns-3 libraries in $LIBDIR" >&2; exit 1; }
log "sysroot: $SYSROOT ($nlib ns-3 library files)"

log "configuring $BUILD"
mkdir -p "$BUILD"
cmake -S "$REPO" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDCNLB_ALLOCATOR=system \
    -Dns3_DIR="$LIBDIR/cmake/ns3" \
    -DCMAKE_EXE_LINKER_FLAGS="-Wl,--allow-shlib-undefined -Wl,-rpath-link,$LIBDIR" \
    -DCMAKE_SHARED_LINKER_FLAGS="-Wl,-rpath-link,$LIBDIR" -DCMAKE_SKIP_BUILD_RPATH=ON >"$BUILD/configure.log" 2>&1 ||
    { tail -n 30 "$BUILD/configure.log"; echo "$TAG: CONFIGURE FAILED" >&2; exit 1; }
grep "dcn-lb:" "$BUILD/configure.log" || true
log "building"
if ! cmake --build "$BUILD" -j"$JOBS" >"$BUILD/build.log" 2>&1; then
    grep -v '^\[[0-9]*/[0-9]*\] ' "$BUILD/build.log" | tail -n 60
    echo "$TAG: BUILD FAILED (log: $BUILD/build.log)" >&2
    exit 1
fi
# No header of the host's /usr/include/ns3 (3.37) may have been used.
leaks=$(ninja -C "$BUILD" -t deps | grep -c "^ *$(printf '%s' /usr/include/ns3/)" || true)
if [[ $leaks -ne 0 ]]; then
    echo "$TAG: $leaks host ns-3 3.37 headers (/usr/include/ns3) leaked into the build" >&2
    exit 1
fi
log "running the ns-3 TestSuites with $SUITE's loader: $LDSO"
rc=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$LDSO" --library-path "$LIBDIR:$BUILD" "$BUILD/dcn-lb-test-runner" "$@" |
    sed "s/^dcn-lb test suites:/$TAG dcn-lb test suites:/" | tee "$tmp" || rc=$?
suites=$(sed -n "s/^$TAG dcn-lb test suites: \([0-9]* passed, [0-9]* failed\).*/\1/p" "$tmp" | tail -n1)
gsum="not run"
if [[ -x $BUILD/dcn-lb-gtest && $# -eq 0 ]]; then
    log "running the GoogleTest unit tests with $SUITE's loader"
    grc=0
    gout=$("$LDSO" --library-path "$LIBDIR:$BUILD" "$BUILD/dcn-lb-gtest" --gtest_brief=1 2>&1) || grc=$?
    echo "$gout" | tail -n 5
    gp=0
    gf=0
    if [[ $gout =~ \[\ \ PASSED\ \ \]\ ([0-9]+)\ test ]]; then gp=${BASH_REMATCH[1]}; fi
    if [[ $gout =~ \[\ \ FAILED\ \ \]\ ([0-9]+)\ test ]]; then gf=${BASH_REMATCH[1]}; fi
    [[ $grc -eq 0 ]] || { rc=$grc; [[ $gf -gt 0 ]] || gf=1; }
    gsum="$gp passed, $gf failed"
fi
echo "$TAG: ns-3 suites ${suites:-crashed}, gtest $gsum"
exit "$rc"
