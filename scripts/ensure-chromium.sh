#!/usr/bin/env bash
# Install Debian's chromium for the browser tests when it is missing (needs root or sudo).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
echo "installing Debian chromium for the browser tests..." >&2
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
