#!/usr/bin/env bash
# Headless Chromium for the JupyterLab browser test (tests/running/test_lab_browser.py), from Debian's
# package - no browser download. Playwright's Python package drives it (`pip install playwright`;
# never `playwright install`). Usage: scripts/install_browser.sh   (as root, or with sudo)
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || true)"
    exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium
/usr/bin/chromium --version
