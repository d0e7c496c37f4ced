#!/usr/bin/env bash
# Idempotent setup for a fresh Debian machine: installs what is missing (JDK 17, Maven, Open MPI), builds Open MPI's
# Java bindings (mpi.jar) from Debian's openmpi source package into the local Maven repository when it is not there,
# then builds target/sweep-java.jar and target/lib/ when any source is newer than the jar.
# Usage: scripts/setup.sh [--no-build]      (--no-build: everything except target/sweep-java.jar, for a Maven run
#                                             that follows, e.g. scripts/test.sh)
# SWEEP_M2_REPO=<folder>: the local Maven repository of every Maven run here (mpi.jar goes there, the build reads its
#   dependencies there), e.g. the DIR of an earlier `mvn install -Dmaven.repo.local=DIR` (default: the one Maven
#   reports).
# SWEEP_PREBUILT=1: install and build nothing (a jar copied into target/, e.g. by scripts/gpu-check.sh).
# Runs serialised (flock), so that N ranks of `mpirun -np N ./sweep ...` may all call it. The apt and Maven steps
# log to a temporary file that is shown only when a step fails.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

log() { echo "[setup] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# write_argfile: target/tornado-argfile = TornadoVM's argfile without "." on the module path (stray jars in the
# caller's folder would join it); replaced by a rename and only when it changed, since the launchers of other ranks
# of an mpirun job may be reading it.
write_argfile() {
  sed -E 's#--module-path \.:#--module-path #' "$TORNADOVM_HOME/tornado-argfile" > "target/tornado-argfile.$$"
  if cmp -s "target/tornado-argfile.$$" target/tornado-argfile; then rm -f "target/tornado-argfile.$$"
  else mv -f "target/tornado-argfile.$$" target/tornado-argfile; fi
}

# One temporary folder per run (step logs, the mpi.jar build), made on first use and removed on every exit. The trap
# reads a global: a function's local variable no longer exists when an EXIT trap runs (with set -u that trap itself
# failed, and the folder stayed).
setup_tmp=""
cleanup() { if [ -n "$setup_tmp" ]; then rm -rf "$setup_tmp"; fi; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
make_tmp() {
  if [ -z "$setup_tmp" ]; then setup_tmp="$(mktemp -d "${TMPDIR:-/tmp}/sweep-setup.XXXXXX")"; fi
}

# quiet <what> <command>...: runs the command with its output going to a log; shows the log only when it fails.
quiet() {
  local what="$1" rc=0
  shift
  make_tmp
  "$@" >"$setup_tmp/step.log" 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then
    log "ERROR: $what failed (exit $rc): $*"
    sed 's/\x1b\[[0-9;]*m//g; s/^/[setup]   | /' "$setup_tmp/step.log" | tail -n 60 >&2
  fi
  return $rc
}

in_dir() { local d="$1"; shift; (cd "$d" && "$@"); }

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
    write_argfile
  fi
  exit 0
fi

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
apt_updated=0
apt_install() {
  # apt_install <debian package>...: refreshes the package lists once (they may be stale), then installs.
  if [ -n "$SUDO" ] && ! command -v sudo >/dev/null 2>&1; then
    die "missing Debian package(s) $*, and installing them needs root: run as root" \
        "'apt-get install $*' (or install sudo), then run this again"
  fi
  if [ $apt_updated = 0 ]; then
    log "apt-get update"
    quiet "apt-get update" $SUDO apt-get update -q
    apt_updated=1
  fi
  log "installing $*"
  quiet "apt-get install $*" $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
}
need_pkg() {
  # need_pkg <command> <debian package>
  if ! command -v "$1" >/dev/null 2>&1; then apt_install "$2"; fi
}

need_pkg javac openjdk-17-jdk-headless
need_pkg mvn maven

# ---- Open MPI and its Java bindings -------------------------------------------------------------------------------
# Debian ships mpirun (openmpi-bin) and the JNI library libmpi_java.so (libopenmpi3/libopenmpi-dev) but no mpi.jar:
# its 36 Java sources (ompi/mpi/java/java/, listed in that folder's Makefile.am) are compiled here from Debian's source
# package of the installed version and installed as org.open-mpi:mpi:<upstream version> into the local Maven repository.
# One dpkg-query for both packages (each call costs tens of milliseconds, and this runs on every ./sweep call).
ompi_query() {
  dpkg-query -W -f='${Package}|${Status}|${source:Version}|${source:Upstream-Version}\n' openmpi-bin libopenmpi-dev \
    2>/dev/null || true
}
ompi_state="$(ompi_query)"
mpi_missing=()
for p in openmpi-bin libopenmpi-dev; do
  grep -q "^$p|[^|]* installed|" <<<"$ompi_state" || mpi_missing+=("$p")
done
if [ ${#mpi_missing[@]} -gt 0 ]; then
  apt_install "${mpi_missing[@]}"
  ompi_state="$(ompi_query)"
fi
ompi_src_version="$(awk -F'|' '$1 == "libopenmpi-dev" {print $3}' <<<"$ompi_state")"      # e.g. 4.1.4-3
ompi_version="$(awk -F'|' '$1 == "libopenmpi-dev" {print $4}' <<<"$ompi_state")"          # e.g. 4.1.4
mpi_stamp="built by sweep scripts/setup.sh from Debian openmpi $ompi_src_version, javac --release 17"
pom_ompi="$(sed -n 's:.*<openmpi.version>\(.*\)</openmpi.version>.*:\1:p' pom.xml)"
if [ -n "$pom_ompi" ] && [ "$pom_ompi" != "$ompi_version" ]; then
  log "WARNING: installed Open MPI is $ompi_version but pom.xml wants org.open-mpi:mpi:$pom_ompi" \
      "(build with -Dopenmpi.version=$ompi_version)"
fi

# ---- Is a build needed? -----------------------------------------------------------------------------------------
# With a TornadoVM SDK (TORNADOVM_HOME holding a generated tornado-argfile) and a JDK 25 (JAVA_HOME or java on the
# PATH), the jar is built with the TornadoVM backend (-Ptornado) and ./sweep starts the JVM through TornadoVM; else the
# default build. SWEEP_TORNADO=0 forces the default build. target/sweep-java.profile records which one the jar is, and
# target/sweep-java.mpi the mpi.jar that target/lib/ holds.
build=1
if [ "${1:-}" = "--no-build" ]; then build=0; fi
jar=target/sweep-java.jar
profile=default
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if [ $build = 1 ] && [ "${SWEEP_TORNADO:-1}" != "0" ] && [ -n "${TORNADOVM_HOME:-}" ] \
   && [ -f "$TORNADOVM_HOME/tornado-argfile" ]; then
  java_major="$("$java_bin" -version 2>&1 | sed -nE '1s/.*version "([0-9]+).*/\1/p')"
  if [ "${java_major:-0}" -ge 25 ]; then
    profile=tornado
  else
    log "TORNADOVM_HOME is set but $java_bin is JDK ${java_major:-?}; the TornadoVM backend needs JDK 25" \
        "(set JAVA_HOME): building without it"
  fi
fi
built_profile="$(cat target/sweep-java.profile 2>/dev/null || echo default)"   # no record: a default build
stale=0
if [ ! -f "$jar" ] || [ ! -d target/lib ] || [ "$built_profile" != "$profile" ] \
   || [ "$(cat target/sweep-java.mpi 2>/dev/null)" != "$mpi_stamp" ] \
   || [ -n "$(find pom.xml src tornado-tasks -newer "$jar" -type f 2>/dev/null | head -1)" ]; then
  stale=1
fi
if [ $build = 1 ] && [ $stale = 0 ]; then
  # The fast path of every ./sweep call (and of every rank under mpirun): the jar and target/lib/ (which holds its own
  # copy of mpi.jar) are current, so neither Maven nor its local repository is consulted, and nothing is written.
  if [ "$profile" = tornado ]; then
    write_argfile
  fi
  exit 0
fi
if [ $build = 1 ] && { [ ! -w "$here" ] || { [ -e target ] && [ ! -w target ]; }; }; then
  die "$here needs a build (target/sweep-java.jar is missing or older than the sources), but $(id -un) cannot" \
      "write there. Ask the owner of $here to run ./sweep once (it builds target/), or use your own clone:" \
      "git clone $here ~/sweep-java && ~/sweep-java/sweep ..."
fi

# ---- The local Maven repository, and mpi.jar in it ---------------------------------------------------------------
# Maven is asked where its local repository is (MAVEN_OPTS, settings.xml, .mvn/ and -Dmaven.repo.local all count), so
# that mpi.jar lands where the Maven run that follows reads it. Asking takes seconds: it is done only here, when a Maven
# run follows (a build, or --no-build before tests), never on the launcher's fast path above.
mvn_repo=()
if [ -n "${SWEEP_M2_REPO:-}" ]; then
  m2_repo="$SWEEP_M2_REPO"
  mvn_repo=("-Dmaven.repo.local=$m2_repo")
  log "Maven repository: $m2_repo (SWEEP_M2_REPO)"
else
  make_tmp
  if ! quiet "asking Maven for its local repository (mvn help:evaluate; needs Maven Central once)" \
       mvn -B -q -Dstyle.color=never org.apache.maven.plugins:maven-help-plugin:3.5.1:evaluate \
       -Dexpression=settings.localRepository -Doutput="$setup_tmp/m2-repo.txt"; then
    die "cannot tell where Maven's local repository is: connect to Maven Central once, or set SWEEP_M2_REPO to" \
        "that folder"
  fi
  m2_repo="$(sed 's/\x1b\[[0-9;]*m//g' "$setup_tmp/m2-repo.txt" | tr -d '\r\n')"
  [ -n "$m2_repo" ] || die "Maven reported an empty local repository path"
fi
mpi_dir="$m2_repo/org/open-mpi/mpi/$ompi_version"
mpi_marker="$mpi_dir/mpi-$ompi_version.sweep-setup"

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
  if [ -n "$SUDO" ] && ! command -v sudo >/dev/null 2>&1; then
    die "building mpi.jar needs Debian's openmpi source package, and adding a deb-src entry for it needs root:" \
        "run scripts/setup.sh once as root"
  fi
  log "adding deb-src entries in $list:"
  local site suite tmp="$setup_tmp/deb-src.sources"
  : >"$tmp"
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
  log "apt-get update (deb-src entries only)"
  quiet "apt-get update (deb-src)" $SUDO apt-get update -q -o Dir::Etc::sourcelist="$list" \
    -o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0
}

build_mpi_jar() {
  local t0=$SECONDS
  make_tmp
  local work="$setup_tmp/mpi-jar"   # removed with $setup_tmp by the EXIT trap, on success and on failure
  mkdir -p "$work"
  ensure_deb_src
  log "downloading Debian source package openmpi=$ompi_src_version"
  local sandbox=()
  if [ "$(id -u)" = "0" ]; then sandbox=(-o APT::Sandbox::User=root); fi
  quiet "apt-get source openmpi=$ompi_src_version" in_dir "$work" apt-get source -q --download-only \
    "${sandbox[@]}" "openmpi=$ompi_src_version"
  local orig
  orig="$(ls "$work"/openmpi_"$ompi_version".orig.tar.* | head -1)"
  log "extracting ompi/mpi/java/java/ from $(basename "$orig")"
  mkdir "$work/src"
  tar -xf "$orig" -C "$work/src" --strip-components=1 --wildcards '*/ompi/mpi/java/java/*'
  local jdir="$work/src/ompi/mpi/java/java" files=()
  # The source list: JAVA_SRC_FILES in Makefile.am (a backslash-continued list of *.java names).
  mapfile -t files < <(sed -n '/^JAVA_SRC_FILES[[:space:]]*=/,/[^\\]$/p' "$jdir/Makefile.am" \
                       | tr ' \t\\' '\n\n\n' | grep '\.java$' | sed "s:^:$jdir/:")
  if [ ${#files[@]} -eq 0 ]; then die "no JAVA_SRC_FILES in $jdir/Makefile.am"; fi
  log "compiling ${#files[@]} Java sources (javac --release 17) and jarring mpi.jar"
  quiet "javac (Open MPI's Java bindings)" javac --release 17 -nowarn -encoding UTF-8 -d "$work/classes" "${files[@]}"
  jar --create --file "$work/mpi.jar" -C "$work/classes" .
  log "installing org.open-mpi:mpi:$ompi_version into $m2_repo"
  quiet "installing mpi.jar into $m2_repo" mvn -B -q -Dstyle.color=never install:install-file \
    -Dmaven.repo.local="$m2_repo" -Dfile="$work/mpi.jar" -DgroupId=org.open-mpi -DartifactId=mpi \
    -Dversion="$ompi_version" -Dpackaging=jar -DgeneratePom=true
  echo "$mpi_stamp" >"$mpi_marker"
  log "mpi.jar ready ($((SECONDS - t0)) s)"
}

if [ ! -f "$mpi_dir/mpi-$ompi_version.jar" ] || [ "$(cat "$mpi_marker" 2>/dev/null)" != "$mpi_stamp" ]; then
  build_mpi_jar
fi

if [ $build = 0 ]; then exit 0; fi

# ---- Build ------------------------------------------------------------------------------------------------------
if [ "$built_profile" != "$profile" ] && [ -f "$jar" ]; then
  log "switching the build to the $profile profile: mvn clean"
  mvn -q -B -Dstyle.color=never ${mvn_repo[@]+"${mvn_repo[@]}"} clean 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >&2
fi
log "building $jar ($profile profile${SWEEP_M2_REPO:+, Maven repository $m2_repo})"
rm -f target/sweep-java.mpi
if [ "$profile" = tornado ]; then
  mvn -q -B -Dstyle.color=never ${mvn_repo[@]+"${mvn_repo[@]}"} -Ptornado -DskipTests package 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >&2
else
  mvn -q -B -Dstyle.color=never ${mvn_repo[@]+"${mvn_repo[@]}"} -DskipTests package 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >&2
fi
echo "$profile" > target/sweep-java.profile
echo "$mpi_stamp" > target/sweep-java.mpi
if [ "$profile" = tornado ]; then
  write_argfile
fi
