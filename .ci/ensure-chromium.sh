#!/usr/bin/env bash
# Playwright cannot download its own browsers on our machines; the e2e suite runs on Debian's chromium.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "No chromium found. Install Chromium and set CHROMIUM_PATH=/path/to/chromium." >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
echo "Installing Debian chromium for the end-to-end tests (apt-get) ..."
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
/usr/bin/chromium --version
