#!/usr/bin/env bash
# dcn-lb against ns-3 3.43 (Debian trixie's binary packages, private sysroot).
# Kept for its name (README, CI history): the work is done by tools/ns3-sysroot.sh,
# which also handles 3.48 (Debian sid); see there.
#   tools/ns3-343-sysroot.sh [test-runner args]      # = tools/ns3-sysroot.sh 3.43 ...
# DCNLB_343_BUILD (default build-3.43) still selects the build directory.
set -euo pipefail
export DCNLB_SYSROOT_BUILD=${DCNLB_343_BUILD:-${DCNLB_SYSROOT_BUILD:-}}
[[ -n $DCNLB_SYSROOT_BUILD ]] || unset DCNLB_SYSROOT_BUILD
exec bash "$(dirname "${BASH_SOURCE[0]}")/ns3-sysroot.sh" 3.43 "$@"
