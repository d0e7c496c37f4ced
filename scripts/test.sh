#!/usr/bin/env bash
# Runs the whole test suite (JUnit 5 on the CPU fallback), after installing whatever is missing, then the conformance
# kit on the example equation of examples/custom-equation.
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
# install, not just test: the same single build also installs the jar and the test-jar (the conformance kit) that the
# example equation below is built against
# SWEEP_M2_REPO (see scripts/setup.sh) is the Maven repository of these runs too
repo=()
if [ -n "${SWEEP_M2_REPO:-}" ]; then repo=("-Dmaven.repo.local=$SWEEP_M2_REPO"); fi
mvn -B install ${repo[@]+"${repo[@]}"} "$@"
# the example equation written outside the main tree (2-D SH waves) through the conformance kit, against the jars just
# installed; the same Maven arguments (e.g. -o, -Dmaven.repo.local=...) and MAVEN_OPTS. A -Dtest=... filter names tests
# of the main suite: the example is skipped then.
case " $* " in
  *" -Dtest="*) echo "[test] -Dtest given: examples/custom-equation's tests skipped" >&2; exit 0 ;;
esac
exec examples/custom-equation/build.sh --test --no-install ${repo[@]+"${repo[@]}"} "$@"
