#!/usr/bin/env bash
# Install Debian's chromium for the browser tests when it is missing, and CJK fonts so that
# screenshots of the 中文 interface show characters, not boxes (needs root or sudo).
set -euo pipefail
have_fonts() { fc-list 2>/dev/null | grep -i "noto.*cjk" >/dev/null; }
if [ -x /usr/bin/chromium ] && have_fonts; then exit 0; fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
echo "installing Debian chromium and CJK fonts for the browser tests..." >&2
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
