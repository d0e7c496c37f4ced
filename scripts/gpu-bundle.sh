#!/usr/bin/env bash
# Builds a self-contained bundle for a GPU machine that has no Java, no Maven, no package registry and no network (the
# project's device machine: one NVIDIA GPU, its driver, Python), and splits it into parts that the device tool can carry.
#
# Usage: TORNADOVM_HOME=SDK JAVA_HOME=JDK25 scripts/gpu-bundle.sh [--out DIR] [--part-mib N] [--no-mpi]
#   TORNADOVM_HOME  a TornadoVM SDK with a generated tornado-argfile (docs/tornadovm.md); an SDK built with the PTX
#                   backend as well (etc/tornado.backend lists ptx-backend) adds PTX to the bundle
#   JAVA_HOME       a JDK 25 with jlink (it builds the -Ptornado jar and links the runtime)
#   --out DIR       where the parts and MANIFEST.txt go (default gpu-bundle/ in the repository root, git-ignored)
#   --part-mib N    largest part in MiB (default 60: a part plus the working tree stays under a call's 64 MiB)
#   --no-mpi        leave Open MPI out
# Needs apt-get (downloads the Debian packages of the installed versions; no root needed for that), dpkg, xz, readelf
# and sha256sum. Writes only into --out, target/ (the jar) and a temporary folder.
#
# The bundle (one tar.xz, folder sweep-gpu/):
#   jdk/        a jlinked JDK 25 runtime: the modules jdeps finds in the project's jars plus those the TornadoVM and Graal
#               modules require (module descriptors), JVMCI included; Graal itself comes from the SDK's graalJars
#   tornadovm/  the SDK's native libraries, etc/, and only the jars of the module closure of TornadoVM's runtime and
#               drivers; the PTX driver jar sits apart in share/java/tornado-ptx so that an OpenCL-only argfile can
#               leave it off the module path (on the module path, service binding loads it, and without libcuda.so.1
#               the whole runtime fails to start); argfile templates tornado-argfile-{opencl,ptx}.template
#   app/        target/sweep-java.jar (built with -Ptornado) and target/lib/*.jar
#   opencl/     Debian's OpenCL ICD loader (ocl-icd-libopencl1: lib/libOpenCL.so.1) and vendors/, where
#               scripts/gpu-check.sh writes an ICD entry for the driver's libnvidia-opencl.so.1 on the device
#   ompi/       Open MPI's runtime from Debian's packages (orterun/mpirun, libraries, libmpi_java.so, plugins whose
#               libraries are all in the bundle, help and configuration files, PMIx, hwloc, libevent), relocated at
#               run time through OPAL_* and PMIX_* variables (scripts/gpu-check.sh sets them)
#   BUNDLE.txt  what went in: commit, versions, modules, sizes
#
# Staging on the device machine (device tool: each call carries the working tree plus at most 8 ignored paths, 64 MiB
# in all; files stay there only while the machine is warm, 30 s after a call; 15 minutes of device time per session):
#   parts ≤ 64 MiB minus the working tree together: one call, carry ["gpu-bundle"], command
#       bash scripts/gpu-check.sh
#   more: one call per ~60 MiB, each carrying some parts (plus MANIFEST.txt) and copying them out of the working tree,
#       bash scripts/gpu-check.sh --stage /tmp/sweep-gpu-parts
#   then, at once (within 30 s), the last call with the remaining parts:
#       bash scripts/gpu-check.sh --parts gpu-bundle --parts /tmp/sweep-gpu-parts
#   docs/tornadovm.md ("GPUs") has the exact calls.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

log() { echo "[gpu-bundle] $*" >&2; }
die() { echo "[gpu-bundle] ERROR: $*" >&2; exit 2; }

out="$here/gpu-bundle"
part_mib=60
with_mpi=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --part-mib) part_mib="$2"; shift 2 ;;
    --no-mpi) with_mpi=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
case "$part_mib" in ''|*[!0-9]*) die "--part-mib must be a whole number of MiB, got '$part_mib'" ;; esac

# ---- inputs --------------------------------------------------------------------------------------------------------
[ -n "${TORNADOVM_HOME:-}" ] || die "TORNADOVM_HOME is not set: point it at a TornadoVM SDK (docs/tornadovm.md)"
tvm="$(cd "$TORNADOVM_HOME" && pwd -P)"
[ -f "$tvm/tornado-argfile" ] || die "TORNADOVM_HOME=$TORNADOVM_HOME has no tornado-argfile (generate it: docs/tornadovm.md)"
[ -n "${JAVA_HOME:-}" ] || die "JAVA_HOME is not set: point it at a JDK 25 (it needs jlink)"
for t in java jlink jdeps jar; do
  [ -x "$JAVA_HOME/bin/$t" ] || die "JAVA_HOME=$JAVA_HOME has no bin/$t: a full JDK 25 is needed"
done
java_major="$("$JAVA_HOME/bin/java" -version 2>&1 | sed -nE '1s/.*version "([0-9]+).*/\1/p')"
[ "${java_major:-0}" = 25 ] || die "JAVA_HOME=$JAVA_HOME is JDK ${java_major:-?}; TornadoVM 5.2.0-jdk25 needs JDK 25"
for t in apt-get dpkg dpkg-query xz sha256sum split readelf; do
  command -v "$t" >/dev/null 2>&1 || die "'$t' is not installed (Debian: apt-get install dpkg xz-utils coreutils binutils)"
done
backends="$(sed -n 's/^tornado.backends=//p' "$tvm/etc/tornado.backend" 2>/dev/null || true)"
ptx=0
if [[ ",$backends," == *",ptx-backend,"* ]] && [ -f "$tvm/lib/libtornado-ptx.so" ]; then ptx=1; fi
log "TornadoVM SDK $tvm (backends: ${backends:-?}; PTX in the bundle: $([ $ptx = 1 ] && echo yes || echo no))"

t_all=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/sweep-gpu-bundle.XXXXXX")"
trap 'rm -rf "$work"' EXIT
stage="$work/sweep-gpu"
mkdir -p "$stage"/{app,tornadovm/lib,tornadovm/share/java/tornado,tornadovm/share/java/graalJars,opencl/lib,opencl/vendors}

# ---- 1. the application jar (-Ptornado) and its dependency jars ------------------------------------------------------
t0=$SECONDS
log "building target/sweep-java.jar with the TornadoVM profile (scripts/setup.sh)"
SWEEP_PREBUILT=0 SWEEP_TORNADO=1 scripts/setup.sh
[ "$(cat target/sweep-java.profile 2>/dev/null)" = tornado ] \
  || die "scripts/setup.sh did not build the tornado profile (target/sweep-java.profile: $(cat target/sweep-java.profile 2>/dev/null))"
cp target/sweep-java.jar "$stage/app/"
cp -r target/lib "$stage/app/lib"
log "app: $(du -sh "$stage/app" | cut -f1) ($((SECONDS - t0)) s)"

# ---- 2. TornadoVM: the module closure of the runtime and the drivers -------------------------------------------------
# The module closure as the JVM sees it (`java --list-modules` / `--describe-module` over the SDK's module path and
# upgrade module path, so multi-release and automatic jars are read right): module name -> jar, then the non-static
# requires from the roots on. graalJars is TornadoVM's --upgrade-module-path: its modules win over same-named jars.
mp=(--module-path "$tvm/share/java/tornado" --upgrade-module-path "$tvm/share/java/graalJars")
declare -A mod_jar
while read -r name loc _; do
  mod_jar[${name%%@*}]="${loc#file://}"
done < <("$JAVA_HOME/bin/java" "${mp[@]}" --list-modules 2>/dev/null | grep ' file:')
roots="tornado.runtime tornado.annotation tornado.api tornado.drivers.common tornado.drivers.opencl"
[ $ptx = 1 ] && roots="$roots tornado.drivers.ptx"
declare -A seen
queue=($roots)
sysmods=()
while [ ${#queue[@]} -gt 0 ]; do
  m="${queue[0]}"; queue=("${queue[@]:1}")
  [ -n "${seen[$m]:-}" ] && continue
  seen[$m]=1
  if [ -n "${mod_jar[$m]:-}" ]; then
    for r in $("$JAVA_HOME/bin/java" "${mp[@]}" --describe-module "$m" 2>/dev/null \
               | awk '$1 == "requires" && $0 !~ / static/ {print $2}'); do
      queue+=("${r%%@*}")
    done
  elif [[ "$m" == java.* || "$m" == jdk.* ]]; then
    sysmods+=("$m")
  else
    die "TornadoVM module $m is required but no jar of $tvm/share/java provides it"
  fi
done
for m in "${!seen[@]}"; do
  j="${mod_jar[$m]:-}"
  [ -n "$j" ] || continue
  case "$j" in
    */graalJars/*) cp "$j" "$stage/tornadovm/share/java/graalJars/" ;;
    */tornado-drivers-ptx-*) mkdir -p "$stage/tornadovm/share/java/tornado-ptx"; cp "$j" "$stage/tornadovm/share/java/tornado-ptx/" ;;
    *) cp "$j" "$stage/tornadovm/share/java/tornado/" ;;
  esac
done
cp "$tvm/lib/libtornado-opencl.so" "$stage/tornadovm/lib/"
[ $ptx = 1 ] && cp "$tvm/lib/libtornado-ptx.so" "$stage/tornadovm/lib/"
mkdir -p "$stage/tornadovm/etc"
cp "$tvm"/etc/tornado.* "$stage/tornadovm/etc/" 2>/dev/null || true
cp "$tvm"/LICENSE* "$stage/tornadovm/" 2>/dev/null || true
# Argfile templates: the SDK's argfile with its own path replaced by ${TORNADOVM_HOME} and without "." on the module
# path. OpenCL only: no PTX module, no PTX section. PTX: the tornado-ptx folder joins the module path.
tmpl="$work/argfile.template"
sed -e "s|$tvm|\${TORNADOVM_HOME}|g" -e "s|$TORNADOVM_HOME|\${TORNADOVM_HOME}|g" \
    -e 's#--module-path \.:#--module-path #' "$tvm/tornado-argfile" > "$tmpl"
awk '/^# === ptx-exports ===/ {skip = 1; next} /^# === / {skip = 0} !skip' "$tmpl" \
  | sed -e 's/,tornado\.drivers\.ptx//g' > "$stage/tornadovm/tornado-argfile-opencl.template"
if [ $ptx = 1 ]; then
  grep -q 'tornado\.drivers\.ptx' "$tmpl" \
    || die "$tvm has the PTX backend but its tornado-argfile does not name tornado.drivers.ptx: regenerate it with gen-tornado-argfile-template.py opencl,ptx"
  sed -e 's#^\(--module-path .*share/java/tornado\)$#\1:${TORNADOVM_HOME}/share/java/tornado-ptx#' "$tmpl" \
    > "$stage/tornadovm/tornado-argfile-ptx.template"
  grep -q 'tornado-ptx$' "$stage/tornadovm/tornado-argfile-ptx.template" || die "could not add tornado-ptx to the module path"
fi
log "tornadovm: $(du -sh "$stage/tornadovm" | cut -f1), $(ls "$stage"/tornadovm/share/java/*/ | grep -c '\.jar$') jars ($((SECONDS - t0)) s)"

# ---- 3. jlink: the JDK modules the project and TornadoVM need ---------------------------------------------------------
t0=$SECONDS
appmods="$("$JAVA_HOME/bin/jdeps" --multi-release 25 --ignore-missing-deps --print-module-deps \
           --module-path "$here/target/lib" --class-path "$here/target/lib/*:$(ls "$tvm"/share/java/tornado/tornado-api-*.jar | head -1)" \
           target/sweep-java.jar target/lib/*.jar 2>/dev/null | tail -1)"
case "$appmods" in java.base*|*java.*) ;; *) die "jdeps gave no module list for the project's jars: '$appmods'" ;; esac
# jdk.incubator.vector: the launcher adds it (CPU kernels); jdk.internal.vm.ci: -XX:+EnableJVMCI (TornadoVM's argfile).
modules="$(printf '%s\n' ${appmods//,/ } "${sysmods[@]}" jdk.internal.vm.ci jdk.incubator.vector | sort -u | paste -sd, -)"
log "jlink --add-modules $modules"
"$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress zip-0 \
  --output "$stage/jdk" 2>&1 | grep -v 'incubator modules' >&2 || true
[ -x "$stage/jdk/bin/java" ] || die "jlink failed"
log "jdk: $(du -sh "$stage/jdk" | cut -f1) ($((SECONDS - t0)) s)"

# ---- 4. Debian packages: OpenCL ICD loader, Open MPI runtime ----------------------------------------------------------
t0=$SECONDS
debs="$work/debs"; mkdir -p "$debs" "$work/x"
sandbox=()   # as root, apt's download sandbox user cannot write into our temporary folder
if [ "$(id -u)" = 0 ]; then sandbox=(-o APT::Sandbox::User=root); fi
fetch_deb() {  # fetch_deb <package>: the installed version when there is one, else the candidate; extracted in $work/x
  local v
  v="$(dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true)"
  (cd "$debs" && apt-get download -qq "${sandbox[@]}" "$1${v:+=$v}" >&2) \
    || die "apt-get download $1${v:+=$v} failed (apt-get update first?)"
  dpkg -x "$(ls "$debs"/"${1}"_*.deb | head -1)" "$work/x"
  echo "$1 ${v:-candidate}" >> "$work/debs.txt"
}
fetch_deb ocl-icd-libopencl1
cp -a "$work"/x/usr/lib/x86_64-linux-gnu/libOpenCL.so.1* "$stage/opencl/lib/"
cp "$work/x/usr/share/doc/ocl-icd-libopencl1/copyright" "$stage/opencl/copyright.ocl-icd" 2>/dev/null || true
if [ $with_mpi = 1 ]; then
  for p in openmpi-bin libopenmpi3 openmpi-common libpmix2 libhwloc15 libevent-core-2.1-7 libevent-pthreads-2.1-7 \
           libmunge2 libudev1 zlib1g; do
    fetch_deb "$p"
  done
  x="$work/x"; L="$x/usr/lib/x86_64-linux-gnu"; o="$stage/ompi"
  mkdir -p "$o"/{bin,lib/openmpi3,lib/pmix,lib/hwloc,lib-fallback,share,etc,doc}
  cp -a "$x/usr/bin/orterun" "$x/usr/bin/orted" "$x/usr/bin/ompi_info" "$o/bin/"
  ln -s orterun "$o/bin/mpirun"
  for l in libmpi libopen-rte libopen-pal libmpi_java libmca_common_sm libmca_common_ompio libmca_common_monitoring \
           libpmix libhwloc libevent_core-2.1 libevent_pthreads-2.1 libmunge; do
    cp -a "$L/$l".so.* "$o/lib/" 2>/dev/null || cp -a "$x"/lib/x86_64-linux-gnu/"$l".so.* "$o/lib/"
  done
  for f in "$o"/lib/*.so*; do   # links that point out of the folder (libpmix.so.2 -> pmix2/lib/...): the file itself
    if [ -L "$f" ] && [ ! -e "$f" ]; then
      real="$(readlink -f "$L/$(basename "$f")")"; b="$(basename "$real")"
      if [ ! -f "$o/lib/$b" ] || [ -L "$o/lib/$b" ]; then rm -f "$o/lib/$b"; cp "$real" "$o/lib/$b"; fi
      [ "$b" = "$(basename "$f")" ] || ln -sfn "$b" "$f"
    fi
  done
  ln -s libmpi_java.so.40 "$o/lib/libmpi_java.so"     # System.loadLibrary("mpi_java") looks for the unversioned name
  # libudev and zlib are on nearly every system; gpu-check.sh adds lib-fallback only where they are missing
  cp -a "$x"/{usr/,}lib/x86_64-linux-gnu/libudev.so.1* "$x"/{usr/,}lib/x86_64-linux-gnu/libz.so.1* "$o/lib-fallback/" 2>/dev/null || true
  # plugins: only those whose libraries are all in the bundle or in glibc (no UCX, libfabric, verbs, PSM)
  have=" $(ls "$o/lib" "$o/lib-fallback" | tr '\n' ' ') libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 ld-linux-x86-64.so.2 "
  kept=0; dropped=()
  for so in "$L"/openmpi/lib/openmpi3/*.so "$L"/pmix2/lib/pmix/*.so; do
    ok=1
    for n in $(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      [[ "$have" == *" $n "* ]] || { ok=0; break; }
    done
    if [ $ok = 1 ]; then
      case "$so" in */pmix/*) cp "$so" "$o/lib/pmix/" ;; *) cp "$so" "$o/lib/openmpi3/" ;; esac
      kept=$((kept + 1))
    else
      dropped+=("$(basename "$so")")
    fi
  done
  cp -r "$x/usr/share/openmpi" "$o/share/openmpi"
  cp -r "$L/pmix2/share/pmix" "$o/share/pmix"
  cp "$x/etc/openmpi/openmpi-mca-params.conf" "$x/etc/openmpi/openmpi-default-hostfile" "$o/etc/"
  for p in openmpi-bin libpmix2 libhwloc15 libevent-core-2.1-7 libmunge2; do
    cp "$x/usr/share/doc/$p/copyright" "$o/doc/copyright.$p" 2>/dev/null || true
  done
  log "ompi: $(du -sh "$o" | cut -f1), $kept plugins kept, left out (libraries not bundled): ${dropped[*]:-none}"
fi
log "Debian packages: $(paste -sd' ' "$work/debs.txt" | sed 's/ \([a-z]\)/, \1/g') ($((SECONDS - t0)) s)"

# ---- 5. BUNDLE.txt, archive, parts, manifest --------------------------------------------------------------------------
commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
dirty="$(git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo ' (with uncommitted changes)' || true)"
{
  echo "sweep-gpu bundle"
  echo "commit      $commit$dirty"
  echo "built       $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m)"
  echo "jdk         $("$stage/jdk/bin/java" -version 2>&1 | head -1); modules: $modules"
  echo "tornadovm   $(cat "$tvm/etc/tornado.release" 2>/dev/null | head -1); backends in the bundle: opencl$([ $ptx = 1 ] && echo ,ptx)"
  echo "tornado jars $(ls "$stage"/tornadovm/share/java/*/ | grep '\.jar$' | sort | paste -sd' ' -)"
  echo "debian      $(paste -sd',' "$work/debs.txt")"
  echo "mpi         $([ $with_mpi = 1 ] && echo "Open MPI $(dpkg-query -W -f='${Version}' libopenmpi3 2>/dev/null)" || echo none)"
  echo "sizes       $(cd "$stage" && du -sh jdk tornadovm app opencl $([ $with_mpi = 1 ] && echo ompi) | awk '{printf "%s %s, ", $2, $1}')"
} > "$stage/BUNDLE.txt"
cat "$stage/BUNDLE.txt" >&2

t0=$SECONDS
mkdir -p "$out"
rm -f "$out"/sweep-gpu.tar.xz.part-* "$out/MANIFEST.txt"
log "packing (xz -6, $(nproc) threads): $(du -sh "$stage" | cut -f1) uncompressed"
tar -C "$work" --owner=0 --group=0 -cf - sweep-gpu | xz -T0 -6 > "$work/sweep-gpu.tar.xz"
archive_sha="$(sha256sum "$work/sweep-gpu.tar.xz" | cut -d' ' -f1)"
archive_bytes="$(stat -c %s "$work/sweep-gpu.tar.xz")"
split -b "${part_mib}M" -d -a 2 "$work/sweep-gpu.tar.xz" "$out/sweep-gpu.tar.xz.part-"
{
  echo "# sweep-gpu bundle of commit $commit$dirty, $(date -u +%Y-%m-%dT%H:%M:%SZ); scripts/gpu-check.sh assembles it"
  echo "# sha256 bytes name"
  echo "$archive_sha $archive_bytes sweep-gpu.tar.xz"
  for p in "$out"/sweep-gpu.tar.xz.part-*; do
    echo "$(sha256sum "$p" | cut -d' ' -f1) $(stat -c %s "$p") $(basename "$p")"
  done
} > "$out/MANIFEST.txt"
log "packed in $((SECONDS - t0)) s; total $((SECONDS - t_all)) s"
echo "bundle: $out (archive $(awk -v b="$archive_bytes" 'BEGIN {printf "%.1f MiB", b / 1048576}'), sha256 $archive_sha)"
for p in "$out"/sweep-gpu.tar.xz.part-*; do
  awk -v n="$(basename "$p")" -v b="$(stat -c %s "$p")" 'BEGIN {printf "  %-28s %6.1f MiB\n", n, b / 1048576}'
done
echo "  MANIFEST.txt"
