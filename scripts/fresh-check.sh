#!/usr/bin/env bash
# What a new machine sees: clones this repository's HEAD (committed work only) into a temporary folder and runs the CI
# entry point (.ci/run: setup, then the whole test suite) there with an empty local Maven repository and its own
# temporary folder, so every dependency, plugin and mpi.jar is fetched and built afresh. Removes everything afterwards.
# Usage: scripts/fresh-check.sh [mvn test arguments, e.g. -Dtest=NpyTest]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
head="$(git -C "$here" rev-parse HEAD)"
if [ -n "$(git -C "$here" status --porcelain --untracked-files=no)" ]; then
  echo "[fresh-check] note: uncommitted changes in $here are not part of the check (it tests HEAD $head)" >&2
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/sweep-fresh-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT       # $work is global: the trap still sees it when the script ends
trap 'exit 130' INT
trap 'exit 143' TERM
git clone -q --no-checkout "$here" "$work/clone"
git -C "$work/clone" checkout -q --detach "$head"
mkdir "$work/m2" "$work/tmp"
echo "[fresh-check] HEAD $head in $work/clone; empty Maven repository $work/m2" >&2
t0=$SECONDS
rc=0
(cd "$work/clone" && env -u SWEEP_M2_REPO MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }-Dmaven.repo.local=$work/m2" \
   TMPDIR="$work/tmp" bash .ci/run "$@") || rc=$?
echo "[fresh-check] .ci/run exited $rc after $((SECONDS - t0)) s" >&2
exit $rc
