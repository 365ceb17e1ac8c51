#!/usr/bin/env bash
# Installs a headless browser (Debian's `chromium`) for the test that renders the
# `toolminimize audit --html` page. Idempotent: does nothing when a Chromium is already on PATH
# (or named by $CHROMIUM). Needs root for apt-get; the test skips, saying so, when it cannot.
set -euo pipefail

for b in "${CHROMIUM:-}" chromium chromium-browser google-chrome; do
    if [[ -n "$b" ]] && command -v "$b" >/dev/null 2>&1; then
        echo "setup-chromium: using $(command -v "$b")" >&2
        exit 0
    fi
done

if [[ "$(id -u)" != "0" ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-chromium: no chromium on PATH and no apt-get as root to install it" >&2
    exit 1
fi

# Test binaries may call this at the same time: one installs, the others wait.
exec 9>/tmp/toolminimize-setup-chromium.lock
flock 9
if ! command -v chromium >/dev/null 2>&1; then
    echo "setup-chromium: installing chromium (Debian package)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
fi
command -v chromium >/dev/null 2>&1
