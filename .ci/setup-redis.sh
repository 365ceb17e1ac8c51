#!/usr/bin/env bash
# Installs redis-server (Debian package) for the toolminimize-redis tests, which start their
# own server on loopback. Idempotent; the tests run it themselves when redis-server is
# missing, so `cargo test --workspace` works on a fresh clone of a Debian machine.
set -euo pipefail

if command -v redis-server >/dev/null 2>&1; then
    exit 0
fi
lock="${TMPDIR:-/tmp}/toolminimize-setup-redis.lock"
exec 9>"$lock"
flock 9
if command -v redis-server >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-redis: no redis-server and no apt-get; the Redis tests will be skipped" >&2
    exit 1
fi
echo "setup-redis: installing the redis-server package" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends redis-server >&2
