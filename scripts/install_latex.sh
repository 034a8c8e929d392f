#!/usr/bin/env bash
# A LaTeX engine (pdflatex) with booktabs, from Debian's packages, for the test that typesets every
# table the studies and `sumeval meta-eval` write (tests/plots/test_tables_paper.py; without an engine that
# test checks the tables' structure only). About 15 MB to download, 290 MB on disk, under a minute.
# The tables need booktabs only (texlive-latex-base + texlive-latex-recommended; not texlive-latex-extra);
# the test that they fit ACL's widths typesets them in Times, as ACL's style does (texlive-fonts-recommended).
# Usage: scripts/install_latex.sh   (as root, or with sudo); does nothing when pdflatex and booktabs are there.
set -euo pipefail
if command -v pdflatex > /dev/null && command -v kpsewhich > /dev/null && kpsewhich booktabs.sty > /dev/null \
        && kpsewhich ptmr8t.tfm > /dev/null; then
    echo "LaTeX already installed: $(pdflatex --version | head -n 1)"
    exit 0
fi
if ! command -v apt-get > /dev/null; then
    echo "no apt-get here: install a LaTeX engine with booktabs yourself (e.g. TeX Live); the table test" \
         "checks the tables' structure without one" >&2
    exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
# the engine is for one test, not for sumeval: when apt cannot install it, say so and go on (the test
# then checks the tables' structure and says that it did not typeset them)
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
        --no-install-recommends texlive-latex-base texlive-latex-recommended texlive-fonts-recommended; }; then
    echo "warning: could not install pdflatex + booktabs with apt-get; tables are checked for structure only" >&2
    exit 0
fi
pdflatex --version | head -n 1
