#!/usr/bin/env bash
# Runs the whole test suite (JUnit 5 on the CPU fallback), after installing whatever is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
scripts/setup.sh --no-build
exec mvn -B test "$@"
