#!/usr/bin/env bash
# Installs the reference MCP server, @modelcontextprotocol/server-everything,
# for the mcpclient tests, into a cache directory outside the repository
# (WETEL_MCP_EVERYTHING_DIR, default ~/.cache/wetel/mcp-everything). The
# tests look for it there, or at WETEL_MCP_EVERYTHING, and skip without it.
# Needs node and npm. Does nothing when the pinned version is installed.
set -euo pipefail

version=2026.8.31
dir="${WETEL_MCP_EVERYTHING_DIR:-$HOME/.cache/wetel/mcp-everything}"
pkg="$dir/node_modules/@modelcontextprotocol/server-everything"

if [ -f "$pkg/dist/index.js" ] && grep -q "\"version\": \"$version\"" "$pkg/package.json"; then
	echo "server-everything $version is installed in $dir"
	exit 0
fi
mkdir -p "$dir"
npm install --no-audit --no-fund --prefix "$dir" "@modelcontextprotocol/server-everything@$version"
echo "installed server-everything $version in $dir"
