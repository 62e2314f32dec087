#!/usr/bin/env bash
# Builds dcn-lb's documentation (doc/) with Sphinx; any warning is an error.
#
#   tools/build-docs.sh [NS3_TREE]
#
# 1. Standalone: sphinx-build -W -b html doc build/doc/html  (doc/conf.py, doc/index.rst)
#    View: xdg-open build/doc/html/index.html  (or python3 -m http.server -d build/doc/html)
# 2. Inside ns-3's own model library docs: if an ns-3 source tree is given (or the
#    Debian 3.37 tree cached by tools/ns3-intree.sh exists), the files are placed the
#    way ns-3's doc/models/Makefile places them (flat in source-temp/, next to ns-3's
#    conf.py, replace.txt and ns3_html_theme, with "dcn-lb" in the index toctree) and
#    built with ns-3's configuration; no warning may name one of our files.
# Installs Debian's python3-sphinx if missing (tools/install-deps.sh).
# Last line: "docs: standalone OK (<n> pages) | ns-3 layout OK|skipped".
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
OUT=${DOC_OUT:-build/doc}
command -v sphinx-build >/dev/null || bash tools/install-deps.sh python3-sphinx
CHAPTERS=(dcn-lb.rst architecture.rst fabric.rst topology.rst topology-graphs.rst transport.rst roce.rst int-hpcc.rst reps.rst
    reps-validation.rst baselines.rst laps.rst hermes.rst spritz.rst workloads.rst mpi.rst)

rm -rf "$OUT/html" "$OUT/doctrees"
sphinx-build -q -W --keep-going -b html -d "$OUT/doctrees" doc "$OUT/html"
pages=$(find "$OUT/html" -maxdepth 1 -name '*.html' | wc -l)
echo "docs: standalone HTML in $OUT/html/index.html"

NS3=${1:-}
if [[ -z $NS3 ]]; then
    NS3=$(ls -d "${DCNLB_CI_CACHE:-$HOME/.cache/dcn-lb-ci}"/src-3.37/ns-allinone-3.37/ns-3.37 2>/dev/null | head -n1 || true)
fi
ns3res=skipped
if [[ -n $NS3 && -f $NS3/doc/models/source/conf.py ]]; then
    T=$OUT/ns3-layout
    rm -rf "$T" && mkdir -p "$T/doc/models/source-temp"
    cp -r "$NS3/doc/ns3_html_theme" "$T/doc/"
    cp -r "$NS3"/doc/models/source/{conf.py,replace.txt} "$T/doc/models/source-temp/"
    [[ -d $NS3/doc/models/source/_static ]] && cp -r "$NS3/doc/models/source/_static" "$T/doc/models/source-temp/"
    (cd doc && cp "${CHAPTERS[@]}" "$REPO/$T/doc/models/source-temp/")
    printf 'Model Library\n=============\n\n.. toctree::\n   :maxdepth: 1\n\n   dcn-lb\n' \
        >"$T/doc/models/source-temp/index.rst"
    (cd "$T/doc/models" && sphinx-build -b html -d doctrees source-temp html) >"$T/build.log" 2>&1 || {
        tail -n 20 "$T/build.log"
        echo "docs: ns-3 layout build FAILED ($NS3)" >&2
        exit 1
    }
    pat=$(printf '%s\\|' "${CHAPTERS[@]}")
    if grep -E "WARNING|ERROR|CRITICAL" "$T/build.log" | grep -q "${pat%\\|}"; then
        grep -E "WARNING|ERROR|CRITICAL" "$T/build.log" | grep "${pat%\\|}" >&2
        echo "docs: warnings in our files under ns-3's configuration ($NS3)" >&2
        exit 1
    fi
    ns3res="OK with $(basename "$NS3")'s doc/models conf.py"
fi
echo "docs: standalone OK ($pages pages, sphinx $(sphinx-build --version | awk '{print $2}'), -W) | ns-3 layout $ns3res"
