#!/usr/bin/env bash
# Build dcn-lb with ns-3's MPI module (distributed simulation) in a private ns-3 3.37
# source tree, for the MPI runs of dcn-transport-bench (README "Distributed runs (MPI)").
#
#   tools/mpi-build.sh [TARGET...]     (default targets: dcn-transport-bench dcn-lb-compare)
#
# * Installs Open MPI (libopenmpi-dev, openmpi-bin) with apt-get when mpicxx/mpirun are
#   missing and we are root; otherwise says what to install and stops.
# * The ns-3 3.37 source is Debian's orig tarball, fetched/cached exactly as by
#   tools/ns3-intree.sh (shared functions in tools/ns3-src-lib.sh); it is extracted into
#   its OWN tree $DCNLB_MPI_CACHE (default $HOME/.cache/dcn-lb-mpi), never into the
#   in-tree CI tree.
# * Configured --enable-mpi --build-profile=optimized with only the modules we need,
#   no tests, our examples only.  Our working tree is re-synced into contrib/dcn-lb on
#   every run (mtimes kept: a re-run rebuilds only what changed).
# * The first build compiles the ns-3 modules (~40-60 min on 2 busy cores); a re-run
#   after a change of ours rebuilds only our module.
# * Prints the directory of the built programs on the last line:
#     MPI build ready: <dir>   (run e.g. mpirun -np 2 <dir>/ns3.37-dcn-transport-bench-optimized --mpi ...)
set -euo pipefail

VERSION=3.37
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CI_CACHE=${DCNLB_CI_CACHE:-$HOME/.cache/dcn-lb-ci} # only the downloaded tarball is shared
CACHE=${DCNLB_MPI_CACHE:-$HOME/.cache/dcn-lb-mpi}
JOBS=${DCNLB_JOBS:-2}
MODULES="core;network;internet;point-to-point;traffic-control;applications;flow-monitor;csma;bridge;mpi;dcn-lb"
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=(dcn-transport-bench dcn-lb-compare)
# shellcheck source=tools/ns3-src-lib.sh
source "$REPO/tools/ns3-src-lib.sh"

log() { echo "[mpi-build] $*"; }

# ------------------------------------------------------------------- Open MPI
if ! command -v mpicxx >/dev/null || ! command -v mpirun >/dev/null; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        log "installing Open MPI (libopenmpi-dev openmpi-bin)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y libopenmpi-dev openmpi-bin >/dev/null
    else
        echo "mpi-build: Open MPI is missing: install libopenmpi-dev and openmpi-bin (apt-get install -y libopenmpi-dev openmpi-bin)" >&2
        exit 1
    fi
fi
log "Open MPI: $(mpirun --version 2>/dev/null | head -n1)"

# ------------------------------------------------------------ source + sync
SUITE=$(ns3_suite_of "$VERSION")
ORIG=$(ns3_fetch_source "$VERSION" "$SUITE" "$CI_CACHE/$SUITE")
NS3=$(ns3_extract "$ORIG" "$CACHE/src-$VERSION" "$VERSION")
log "ns-3 tree: $NS3"
ns3_sync_module "$REPO" "$NS3"

# --------------------------------------------------------- configure + build
cd "$NS3"
ns3_drop_module_headers "$NS3"
log "configuring (--enable-mpi, optimized, modules: $MODULES)"
if ! ./ns3 configure -G Ninja --enable-mpi --build-profile=optimized --disable-tests --enable-examples \
    --enable-modules="$MODULES" --filter-module-examples-and-tests=dcn-lb --disable-python-bindings \
    --disable-werror >"$NS3/configure.log" 2>&1; then
    tail -n 40 "$NS3/configure.log"
    echo "mpi-build: ns-3 $VERSION configure FAILED (log: $NS3/configure.log)" >&2
    exit 1
fi
if ! grep -q "DCNLB_HAVE_MPI" "$NS3/configure.log"; then
    grep -iE "mpi" "$NS3/configure.log" | head -n 5
    echo "mpi-build: ns-3's mpi module was not enabled (see $NS3/configure.log)" >&2
    exit 1
fi
log "building ${TARGETS[*]} with cmake --build cmake-cache -j$JOBS"
start=$(date +%s)
if ! cmake --build cmake-cache -j"$JOBS" --target "${TARGETS[@]}" >"$NS3/build.log" 2>&1; then
    grep -v "^\[[0-9]*/[0-9]*\] " "$NS3/build.log" | tail -n 80
    echo "mpi-build: BUILD FAILED (full log: $NS3/build.log)" >&2
    exit 1
fi
log "build took $(($(date +%s) - start)) s"
echo "MPI build ready: $NS3/build/contrib/dcn-lb"
