#!/usr/bin/env bash
# Runs the whole test suite (JUnit 5 on the CPU fallback), after installing whatever is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
scripts/setup.sh --no-build
# segyio for the SEG-Y interop test (Debian's python3-segyio, for /usr/bin/python3); best effort: skipped without it
if ! /usr/bin/python3 -c 'import segyio' 2>/dev/null; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-segyio; } >&2 \
    || echo "[test] python3-segyio not installed: SegySegyioInteropTest will be skipped" >&2
fi
exec mvn -B test "$@"
