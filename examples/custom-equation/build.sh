#!/usr/bin/env bash
# Builds the SH example equation: installs sweep-java (its jar and its test-jar, which holds the conformance kit) into
# the local Maven repository, then packages this project into target/sweep-sh-equation.jar.
#   ./build.sh            build, tests skipped
#   ./build.sh --test     build and run the example's tests (the conformance kit and the Green's function checks)
#   ./build.sh --no-install   skip installing sweep-java (already installed, e.g. by scripts/test.sh's mvn install)
# Other arguments go to both Maven runs (e.g. -o, -Dmaven.repo.local=...); MAVEN_OPTS is honoured by Maven itself.
# Open MPI's Java bindings (org.open-mpi:mpi), which sweep-java depends on, are installed by scripts/setup.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tests=(-DskipTests)
install=1
extra=()
for a in "$@"; do
  case "$a" in
    --test) tests=() ;;
    --no-install) install=0 ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) extra+=("$a") ;;
  esac
done
if [ "$install" = 1 ] && ! mvn -B -q -f "$root/pom.xml" install -DskipTests ${extra[@]+"${extra[@]}"}; then
  echo "build.sh: error: installing sweep-java from $root failed (Open MPI's mpi.jar missing? run scripts/setup.sh)" >&2
  exit 1
fi
rm -rf "$here/target"
mvn -B -q -f "$here/pom.xml" package ${tests[@]+"${tests[@]}"} ${extra[@]+"${extra[@]}"}
ls "$here"/target/*.jar
