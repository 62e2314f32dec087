# Sphinx configuration for dcn-lb's documentation (standalone build).
#
#   tools/build-docs.sh                 # = sphinx-build -W -b html doc build/doc/html
#   xdg-open build/doc/html/index.html
#
# Inside an ns-3 source tree this file is not used: ns-3's doc/models build copies
# doc/dcn-lb.rst and the chapters it includes into its own source tree (see README,
# "Documentation").  The chapter files are therefore written for ns-3's conventions
# (heading levels, replace.txt) and are .. include::-d by dcn-lb.rst, not listed in a
# toctree of their own.

project = "dcn-lb"
author = "dcn-lb developers"
copyright = "dcn-lb developers"
version = "0.1"
release = version

master_doc = "index"
source_suffix = ".rst"
# Chapters pulled into dcn-lb.rst by ".. include::" are not documents of their own.
import glob as _glob
import os as _os

exclude_patterns = [
    _os.path.basename(f)
    for f in _glob.glob(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "*.rst"))
    if _os.path.basename(f) not in ("index.rst", "dcn-lb.rst")
] + ["_build"]
highlight_language = "cpp"
pygments_style = "sphinx"
extensions = ["sphinx.ext.mathjax"]
# mathjax is loaded from a CDN only when a page has math; no page needs it offline.

html_theme = "alabaster"
html_title = "dcn-lb: multipath load balancing for datacenter networks in ns-3"
html_static_path = []
html_show_sourcelink = False
