#!/usr/bin/env bash
# Idempotent setup for a fresh Debian machine: installs what is missing (JDK 17, Maven, Open MPI), builds Open MPI's
# Java bindings (mpi.jar) from Debian's openmpi source package into the local Maven repository when it is not there,
# then builds target/sweep-java.jar and target/lib/ when any source is newer than the jar.
# Usage: scripts/setup.sh [--no-build]      (--no-build: everything except target/sweep-java.jar)
# SWEEP_PREBUILT=1: install and build nothing (a jar copied into target/, e.g. by scripts/gpu-check.sh).
# Runs serialised (flock), so that N ranks of `mpirun -np N ./sweep ...` may all call it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

log() { echo "[setup] $*" >&2; }

if command -v flock >/dev/null 2>&1; then
  exec 9>"${TMPDIR:-/tmp}/sweep-setup-$(id -u).lock"
  flock 9
fi

# SWEEP_PREBUILT=1: target/sweep-java.jar and target/lib/ were built elsewhere and copied here (a machine without apt,
# Maven or network, e.g. the GPU machine of scripts/gpu-check.sh): install and build nothing, only derive
# target/tornado-argfile from TORNADOVM_HOME as below for a tornado build.
if [ "${SWEEP_PREBUILT:-0}" = 1 ]; then
  if [ ! -f target/sweep-java.jar ] || [ ! -d target/lib ]; then
    log "ERROR: SWEEP_PREBUILT=1 but $here/target/sweep-java.jar or target/lib/ is missing: copy a built jar there" \
        "(scripts/gpu-check.sh does) or unset SWEEP_PREBUILT to build it"
    exit 2
  fi
  if [ "$(cat target/sweep-java.profile 2>/dev/null)" = tornado ] && [ -n "${TORNADOVM_HOME:-}" ]; then
    # replaced by a rename, and only when it changed: ranks of an mpirun job may be reading it
    sed -E 's#--module-path \.:#--module-path #' "$TORNADOVM_HOME/tornado-argfile" > "target/tornado-argfile.$$"
    if cmp -s "target/tornado-argfile.$$" target/tornado-argfile; then rm -f "target/tornado-argfile.$$"
    else mv -f "target/tornado-argfile.$$" target/tornado-argfile; fi
  fi
  exit 0
fi

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
apt_updated=0
apt_install() {
  # apt_install <debian package>...: refreshes the package lists once (they may be stale), then installs.
  if [ $apt_updated = 0 ]; then
    log "apt-get update"
    $SUDO apt-get update -qq >&2
    apt_updated=1
  fi
  log "installing $*"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >&2
}
need_pkg() {
  # need_pkg <command> <debian package>
  if ! command -v "$1" >/dev/null 2>&1; then apt_install "$2"; fi
}
deb_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q ' installed$'
}

need_pkg javac openjdk-17-jdk-headless
need_pkg mvn maven

# ---- Open MPI and its Java bindings -------------------------------------------------------------------------------
# Debian ships mpirun (openmpi-bin) and the JNI library libmpi_java.so (libopenmpi3/libopenmpi-dev) but no mpi.jar:
# its 36 Java sources (ompi/mpi/java/java/, listed in that folder's Makefile.am) are compiled here from Debian's source
# package of the installed version and installed as org.open-mpi:mpi:<upstream version> into the local Maven repository.
mpi_missing=()
for p in openmpi-bin libopenmpi-dev; do deb_installed "$p" || mpi_missing+=("$p"); done
if [ ${#mpi_missing[@]} -gt 0 ]; then apt_install "${mpi_missing[@]}"; fi

ompi_src_version="$(dpkg-query -W -f='${source:Version}' libopenmpi-dev)"          # e.g. 4.1.4-3
ompi_version="$(dpkg-query -W -f='${source:Upstream-Version}' libopenmpi-dev)"     # e.g. 4.1.4
m2_repo="${SWEEP_M2_REPO:-$HOME/.m2/repository}"
mpi_dir="$m2_repo/org/open-mpi/mpi/$ompi_version"
mpi_marker="$mpi_dir/mpi-$ompi_version.sweep-setup"
mpi_stamp="built by sweep scripts/setup.sh from Debian openmpi $ompi_src_version, javac --release 17"
pom_ompi="$(sed -n 's:.*<openmpi.version>\(.*\)</openmpi.version>.*:\1:p' pom.xml)"
if [ -n "$pom_ompi" ] && [ "$pom_ompi" != "$ompi_version" ]; then
  log "WARNING: installed Open MPI is $ompi_version but pom.xml wants org.open-mpi:mpi:$pom_ompi" \
      "(build with -Dopenmpi.version=$ompi_version)"
fi

ensure_deb_src() {
  # Makes `apt-get source openmpi=<installed source version>` possible: adds deb-src entries for the suites of this
  # release (same mirrors as the existing deb entries) when none provides that version.
  if apt-cache showsrc openmpi 2>/dev/null | grep -qx "Version: $ompi_src_version"; then return; fi
  local codename list=/etc/apt/sources.list.d/sweep-deb-src.sources entries
  codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
  entries="$(apt-get indextargets --format '$(SITE) $(RELEASE)' 'Created-By: Packages' 2>/dev/null \
             | awk -v c="$codename" '$2 == c || index($2, c "-") == 1' | sort -u)"
  if [ -z "$entries" ]; then
    log "ERROR: no deb entry for '$codename' to derive a deb-src entry from (see /etc/apt/sources.list*)"
    return 1
  fi
  log "adding deb-src entries in $list:"
  local site suite tmp
  tmp="$(mktemp)"
  while read -r site suite; do
    log "  deb-src $site $suite main"
    {
      echo "Types: deb-src"
      echo "URIs: $site"
      echo "Suites: $suite"
      echo "Components: main"
      if [ -f /usr/share/keyrings/debian-archive-keyring.gpg ]; then
        echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
      fi
      echo
    } >>"$tmp"
  done <<<"$entries"
  $SUDO install -m 0644 "$tmp" "$list"
  rm -f "$tmp"
  log "apt-get update (deb-src entries only)"
  $SUDO apt-get update -qq -o Dir::Etc::sourcelist="$list" -o Dir::Etc::sourceparts=- \
    -o APT::Get::List-Cleanup=0 >&2
}

build_mpi_jar() {
  local t0=$SECONDS work
  work="$(mktemp -d "${TMPDIR:-/tmp}/sweep-mpi-jar.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  ensure_deb_src
  log "downloading Debian source package openmpi=$ompi_src_version into $work"
  local sandbox=()
  if [ "$(id -u)" = "0" ]; then sandbox=(-o APT::Sandbox::User=root); fi
  (cd "$work" && apt-get source -qq --download-only "${sandbox[@]}" "openmpi=$ompi_src_version" >&2)
  local orig
  orig="$(ls "$work"/openmpi_"$ompi_version".orig.tar.* | head -1)"
  log "extracting ompi/mpi/java/java/ from $(basename "$orig")"
  mkdir "$work/src"
  tar -xf "$orig" -C "$work/src" --strip-components=1 --wildcards '*/ompi/mpi/java/java/*'
  local jdir="$work/src/ompi/mpi/java/java" files=()
  # The source list: JAVA_SRC_FILES in Makefile.am (a backslash-continued list of *.java names).
  mapfile -t files < <(sed -n '/^JAVA_SRC_FILES[[:space:]]*=/,/[^\\]$/p' "$jdir/Makefile.am" \
                       | tr ' \t\\' '\n\n\n' | grep '\.java$' | sed "s:^:$jdir/:")
  if [ ${#files[@]} -eq 0 ]; then log "ERROR: no JAVA_SRC_FILES in $jdir/Makefile.am"; return 1; fi
  log "compiling ${#files[@]} Java sources (javac --release 17) and jarring mpi.jar"
  javac --release 17 -nowarn -encoding UTF-8 -d "$work/classes" "${files[@]}" 2>&1 | grep -v '^Note:' >&2 || true
  [ -f "$work/classes/mpi/MPI.class" ] || { log "ERROR: javac failed"; return 1; }
  jar --create --file "$work/mpi.jar" -C "$work/classes" .
  log "installing org.open-mpi:mpi:$ompi_version into $m2_repo"
  mvn -q -B install:install-file -Dmaven.repo.local="$m2_repo" -Dfile="$work/mpi.jar" -DgroupId=org.open-mpi \
      -DartifactId=mpi -Dversion="$ompi_version" -Dpackaging=jar -DgeneratePom=true 2>&1 \
    | sed 's/\x1b\[[0-9;]*m//g' >&2
  echo "$mpi_stamp" >"$mpi_marker"
  log "mpi.jar ready ($((SECONDS - t0)) s)"
}

if [ ! -f "$mpi_dir/mpi-$ompi_version.jar" ] || [ "$(cat "$mpi_marker" 2>/dev/null)" != "$mpi_stamp" ]; then
  build_mpi_jar
fi

if [ "${1:-}" = "--no-build" ]; then exit 0; fi

# With a TornadoVM SDK (TORNADOVM_HOME holding a generated tornado-argfile) and a JDK 25 (JAVA_HOME or java on the
# PATH), the jar is built with the TornadoVM backend (-Ptornado) and ./sweep starts the JVM through TornadoVM; else the
# default build. SWEEP_TORNADO=0 forces the default build. target/sweep-java.profile records which one the jar is.
jar=target/sweep-java.jar
profile=default
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if [ "${SWEEP_TORNADO:-1}" != "0" ] && [ -n "${TORNADOVM_HOME:-}" ] && [ -f "$TORNADOVM_HOME/tornado-argfile" ]; then
  java_major="$("$java_bin" -version 2>&1 | sed -nE '1s/.*version "([0-9]+).*/\1/p')"
  if [ "${java_major:-0}" -ge 25 ]; then
    profile=tornado
  else
    log "TORNADOVM_HOME is set but $java_bin is JDK ${java_major:-?}; the TornadoVM backend needs JDK 25" \
        "(set JAVA_HOME): building without it"
  fi
fi
built_profile="$(cat target/sweep-java.profile 2>/dev/null || echo default)"   # no record: a default build
if [ "$built_profile" != "$profile" ] && [ -f "$jar" ]; then
  log "switching the build to the $profile profile: mvn clean"
  mvn -q -B clean >&2
fi
if [ ! -f "$jar" ] || [ ! -d target/lib ] || \
   [ -n "$(find pom.xml src tornado-tasks -newer "$jar" -type f 2>/dev/null | head -1)" ]; then
  log "building $jar ($profile profile)"
  if [ "$profile" = tornado ]; then
    mvn -q -B -Ptornado -DskipTests package >&2
  else
    mvn -q -B -DskipTests package >&2
  fi
fi
echo "$profile" > target/sweep-java.profile
if [ "$profile" = tornado ]; then
  # TornadoVM's argfile without "." on the module path (stray jars in the caller's folder would join the module path)
  sed -E 's#--module-path \.:#--module-path #' "$TORNADOVM_HOME/tornado-argfile" > target/tornado-argfile
fi
