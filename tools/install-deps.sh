#!/usr/bin/env bash
# Installs (only) the Debian bookworm packages dcn-lb needs that are missing.
# Uses sudo only when not run as root.  Extra packages can be passed as arguments.
set -euo pipefail
PKGS=(build-essential cmake ninja-build pkg-config
    ns3 libns3-dev libgsl-dev libxml2-dev libsqlite3-dev libpython3.11-dev
    libboost-dev libgtest-dev time ccache
    python3-matplotlib tcpdump libjemalloc2 "$@")
missing=()
for p in "${PKGS[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
    echo "install-deps: all packages present"
    exit 0
fi
SUDO=()
if [[ $(id -u) -ne 0 ]]; then
    SUDO=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${SUDO[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
