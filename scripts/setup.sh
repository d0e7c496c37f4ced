#!/usr/bin/env bash
# Idempotent setup for a fresh Debian machine: installs what is missing (JDK 17, Maven), then builds
# target/sweep-java.jar and target/lib/ when any source is newer than the jar.
# Usage: scripts/setup.sh [--no-build]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

log() { echo "[setup] $*" >&2; }

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
apt_updated=0
need_pkg() {
  # need_pkg <command> <debian package>
  if ! command -v "$1" >/dev/null 2>&1; then
    if [ $apt_updated = 0 ]; then
      log "apt-get update"
      $SUDO apt-get update -qq >&2
      apt_updated=1
    fi
    log "installing $2 (for '$1')"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$2" >&2
  fi
}

need_pkg javac openjdk-17-jdk-headless
need_pkg mvn maven

if [ "${1:-}" = "--no-build" ]; then exit 0; fi

jar=target/sweep-java.jar
if [ ! -f "$jar" ] || [ ! -d target/lib ] || \
   [ -n "$(find pom.xml src tornado-tasks -newer "$jar" -type f 2>/dev/null | head -1)" ]; then
  log "building $jar"
  mvn -q -B -DskipTests package >&2
fi
