#!/usr/bin/env bash
# dcn-lb against ns-3 3.43 (Debian trixie) WITHOUT the 3.43 source package.
#
# Debian's trixie *source* package of ns3 (3.43-2) is listed in the Sources index
# but its files are not served by deb.debian.org from this network (404), so no
# in-tree 3.43 build is possible here.  The strongest substitute, done by this
# script, is a standalone build of dcn-lb (library, examples, test runner) against
# trixie's *binary* ns-3 3.43 packages unpacked into a private sysroot, then
# running the ns-3 TestSuites with trixie's own dynamic loader and libraries:
#
#   tools/ns3-343-sysroot.sh            # builds into build-3.43/, runs all suites
#
# Cached under $DCNLB_CI_CACHE (default $HOME/.cache/dcn-lb-ci)/trixie-bin.
# Compiled with the host (bookworm) g++ 12 against the 3.43 headers; linked with
# --allow-shlib-undefined because trixie's libns3 needs newer glibc/libstdc++
# symbol versions than bookworm's; at run time trixie's ld.so/libc/libstdc++ are used.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${DCNLB_CI_CACHE:-$HOME/.cache/dcn-lb-ci}
JOBS=${DCNLB_JOBS:-2}
BASE=$CACHE/trixie-bin
SYSROOT=$BASE/sysroot
BUILD=${DCNLB_343_BUILD:-$REPO/build-3.43}
PKGS=(libns3.43 libns3-dev ns3 libc6 libgcc-s1 libstdc++6 libgsl28 libgslcblas0 libsqlite3-0 libxml2
    libicu76 liblzma5 zlib1g)
log() { echo "[ns3-3.43-sysroot] $*"; }

if [[ ! -f $SYSROOT/.complete ]]; then
    A=$BASE/apt
    mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$BASE/debs"
    echo "deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
        >"$A/sources.list"
    opts=(-o "Dir::Etc::SourceList=$A/sources.list" -o Dir::Etc::SourceParts=/dev/null
        -o "Dir::State::Lists=$A/lists" -o "Dir::Cache=$A/cache" -o Dir::State::status=/dev/null
        -o Debug::NoLocking=1 -o APT::Sandbox::User=root -o APT::Architecture=amd64 -o APT::Architectures=amd64)
    log "downloading trixie binary packages: ${PKGS[*]}"
    apt-get "${opts[@]}" update >/dev/null
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
log "sysroot: $SYSROOT ($(ls "$LIBDIR"/libns3-*.so.43 | wc -l) ns-3 libraries)"

log "configuring $BUILD"
mkdir -p "$BUILD"
cmake -S "$REPO" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -Dns3_DIR="$LIBDIR/cmake/ns3" \
    -DCMAKE_EXE_LINKER_FLAGS="-Wl,--allow-shlib-undefined -Wl,-rpath-link,$LIBDIR" \
    -DCMAKE_SHARED_LINKER_FLAGS="-Wl,-rpath-link,$LIBDIR" -DCMAKE_SKIP_BUILD_RPATH=ON >"$BUILD/configure.log" 2>&1 ||
    { tail -n 30 "$BUILD/configure.log"; echo "ns-3 3.43 (sysroot): CONFIGURE FAILED" >&2; exit 1; }
grep "dcn-lb:" "$BUILD/configure.log" || true
log "building"
if ! cmake --build "$BUILD" -j"$JOBS" >"$BUILD/build.log" 2>&1; then
    grep -v '^\[[0-9]*/[0-9]*\] ' "$BUILD/build.log" | tail -n 60
    echo "ns-3 3.43 (sysroot): BUILD FAILED (log: $BUILD/build.log)" >&2
    exit 1
fi
# No header of the host's /usr/include/ns3 (3.37) may have been used.
leaks=$(ninja -C "$BUILD" -t deps | grep -c "^ *$(printf '%s' /usr/include/ns3/)" || true)
if [[ $leaks -ne 0 ]]; then
    echo "ns-3 3.43 (sysroot): $leaks host ns-3 3.37 headers (/usr/include/ns3) leaked into the build" >&2
    exit 1
fi
log "running the ns-3 TestSuites with trixie's loader: $LDSO"
"$LDSO" --library-path "$LIBDIR:$BUILD" "$BUILD/dcn-lb-test-runner" "$@" |
    sed 's/^dcn-lb test suites:/ns-3 3.43 (sysroot) dcn-lb test suites:/'
if [[ -x $BUILD/dcn-lb-gtest && $# -eq 0 ]]; then
    log "running the GoogleTest unit tests with trixie's loader"
    "$LDSO" --library-path "$LIBDIR:$BUILD" "$BUILD/dcn-lb-gtest" --gtest_brief=1 | tail -n 5
fi
