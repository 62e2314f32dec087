# Shared shell functions for building dcn-lb inside an ns-3 source tree (sourced by
# tools/ns3-intree.sh and tools/mpi-build.sh; not executable on its own).
#
#   ns3_suite_of VERSION                -> Debian suite that ships that ns-3 version
#   ns3_fetch_source VERSION SUITE DIR  -> path of the cached .orig tarball (downloads
#                                          it through a private apt state if missing)
#   ns3_extract ORIG SRCROOT VERSION    -> ns-3 tree (extracts ORIG into SRCROOT if the
#                                          tree is not there yet)
#   ns3_sync_module REPO NS3            -> copies our working tree to NS3/contrib/dcn-lb
#                                          (by content: unchanged files keep their mtime
#                                          and are not rebuilt)
#   ns3_drop_module_headers NS3         -> removes ns-3's stale build/include stubs of ours
#
# The caller defines log() (one-line progress messages) and uses `set -euo pipefail`.

ns3_suite_of() {
    case "$1" in
    3.37) echo bookworm ;;
    3.43) echo trixie ;;
    *) return 1 ;;
    esac
}

ns3_fetch_source() {
    local version=$1 suite=$2 dir=$3
    local orig
    orig=$(ls "$dir"/ns3_"$version"*.orig.tar.* 2>/dev/null | head -n1 || true)
    if [[ -n "$orig" ]]; then
        echo "$orig"
        return
    fi
    log "downloading the ns3 source package from Debian $suite" >&2
    mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial"
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
        >"$dir/apt/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
        -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache" -o Debug::NoLocking=1
        -o APT::Sandbox::User=root)
    apt-get "${opts[@]}" update >&2
    (cd "$dir" && apt-get "${opts[@]}" source --download-only ns3) >&2 || {
        echo "could not download the ns3 $version source package from Debian $suite" >&2
        return 1
    }
    ls "$dir"/ns3_"$version"*.orig.tar.* | head -n1
}

ns3_find_tree() {
    ls -d "$1"/ns-allinone-*/ns-"$2" "$1"/ns-"$2" 2>/dev/null | head -n1 || true
}

ns3_extract() {
    local orig=$1 srcroot=$2 version=$3 ns3
    ns3=$(ns3_find_tree "$srcroot" "$version")
    if [[ -z "$ns3" || ! -f "$ns3/CMakeLists.txt" ]]; then
        log "extracting $(basename "$orig") into $srcroot" >&2
        rm -rf "$srcroot" && mkdir -p "$srcroot"
        tar -xf "$orig" -C "$srcroot"
        ns3=$(ns3_find_tree "$srcroot" "$version")
        if [[ -z "$ns3" || ! -f "$ns3/CMakeLists.txt" ]]; then
            echo "no ns-$version tree with a CMakeLists.txt in $(basename "$orig")" >&2
            return 1
        fi
    fi
    echo "$ns3"
}

ns3_sync_module() {
    local repo=$1 ns3=$2
    local dest=$ns3/contrib/dcn-lb
    rm -rf "$dest.new" && mkdir -p "$dest.new"
    (cd "$repo" && tar -cf - --exclude=./.git --exclude='./build*' --exclude=./cmake-build-* .) | tar -xf - -C "$dest.new"
    # By content, not by the worktree's mtimes: an unchanged file keeps the mtime of
    # the previous copy (not rebuilt); a new or changed file gets the current time, so
    # it is rebuilt even if objects were compiled after its edit from the old copy.
    local f changed=0
    while IFS= read -r -d '' f; do
        if [[ -f "$dest/$f" ]] && cmp -s "$dest.new/$f" "$dest/$f"; then
            touch -r "$dest/$f" "$dest.new/$f"
        else
            touch "$dest.new/$f"
            changed=$((changed + 1))
        fi
    done < <(cd "$dest.new" && find . -type f -print0)
    rm -rf "$dest" && mv "$dest.new" "$dest"
    log "synced $repo -> $dest ($(find "$dest" -name '*.cc' | wc -l) .cc files, $changed new or changed)"
}

ns3_drop_module_headers() {
    # ns-3 writes build/include/ns3/<h>.h stubs (#include "<abs path>") only at
    # configure time and never rewrites existing ones: drop ours before (re-)configuring,
    # so that added, moved or removed headers are picked up.
    local ns3=$1
    { grep -l "contrib/dcn-lb/" "$ns3"/build/include/ns3/*.h 2>/dev/null || true; } | xargs -r rm -f
    rm -f "$ns3/build/include/ns3/dcn-lb-module.h"
}
