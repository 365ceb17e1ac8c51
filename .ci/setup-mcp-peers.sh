#!/usr/bin/env bash
# Installs the MCP peers the mcp-proxy interoperability tests (stdio and Streamable HTTP) run against:
#   - the reference server @modelcontextprotocol/server-everything (npm; its stdio and Streamable
#     HTTP transports), and
#   - the official Python `mcp` SDK (PyPI) in a virtual environment, used both for a small test
#     server (stdio, or Streamable HTTP through the uvicorn it depends on) and as the client
#     (stdio or Streamable HTTP) that drives the proxy.
# The HTTP peers listen on 127.0.0.1 only; the tests reach nothing but loopback.
# Everything goes under <repo>/target/mcp-peers (or $TOOLMINIMIZE_MCP_PEERS). Idempotent: a peer
# already installed at the pinned version is left alone. The mcp-proxy tests run it themselves
# when a peer is missing, so `cargo test --workspace` works on a fresh clone.
set -euo pipefail

SERVER_EVERYTHING_VERSION="2026.8.31"
PYTHON_MCP_VERSION="2.3.0"

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
peers="${TOOLMINIMIZE_MCP_PEERS:-$repo/target/mcp-peers}"
mkdir -p "$peers"

# Test binaries may call this at the same time: one installs, the others wait.
exec 9>"$peers/.install.lock"
flock 9

# --- npm: the reference server ---------------------------------------------------------------
everything_pkg="$peers/node_modules/@modelcontextprotocol/server-everything/package.json"
have_everything=""
if [[ -f "$everything_pkg" ]]; then
    have_everything="$(node -p "require('$everything_pkg').version" 2>/dev/null || true)"
fi
if [[ "$have_everything" != "$SERVER_EVERYTHING_VERSION" ]]; then
    echo "setup-mcp-peers: installing @modelcontextprotocol/server-everything@$SERVER_EVERYTHING_VERSION" >&2
    npm install --prefix "$peers" --no-audit --no-fund --loglevel=error \
        "@modelcontextprotocol/server-everything@$SERVER_EVERYTHING_VERSION" >&2
fi

# --- PyPI: the Python SDK in a venv ----------------------------------------------------------
venv="$peers/venv"
if [[ ! -x "$venv/bin/python" ]]; then
    echo "setup-mcp-peers: creating $venv" >&2
    python3 -m venv "$venv"
fi
have_mcp="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))' 2>/dev/null || true)"
if [[ "$have_mcp" != "$PYTHON_MCP_VERSION" ]]; then
    echo "setup-mcp-peers: installing mcp==$PYTHON_MCP_VERSION" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$PYTHON_MCP_VERSION" >&2
fi

echo "setup-mcp-peers: ready in $peers" >&2
