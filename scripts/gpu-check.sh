#!/usr/bin/env bash
# The prepared GPU check: on a machine with an NVIDIA GPU and its driver but no Java, Maven or network, assembles the
# bundle of scripts/gpu-bundle.sh (checksums verified), then
#   (a) prints nvidia-smi and `./sweep devices`;
#   (b) checks that forward records and gradients (2-D and 3-D, small; acoustic, and 2-D visco-acoustic) on the GPU
#       under --strict-math are bit-identical to the Java backend, and reports the largest difference under
#       TornadoVM's default math;
#   (c) benchmarks 3-D 512^3 and 2-D 8000^2 (Mcells/s, ratio to the HBM bound at --bandwidth 4800 GB/s, 16 B/cell);
#   (d) times one gradient against one forward run on the GPU;
#   (e) with the bundled Open MPI, runs a 2-rank decomposed forward on the one GPU and compares it with one domain.
# Each step runs under `timeout`; no step starts or runs past --deadline seconds, so one device call (10 minutes) holds
# it. Figures go to OUT/gpu-check-summary.txt, all logs to OUT/gpu-check-logs.tar.gz (OUT: $OUT, else gpu-check-out/).
#
# Usage: bash scripts/gpu-check.sh [--parts DIR]... [--dest DIR] [--out DIR] [--deadline S] [--only LIST]
#                                  [--kinds LIST] [--pocl] [--keep]
#        bash scripts/gpu-check.sh --stage DIR [--parts DIR]...
#   --parts DIR   a folder with MANIFEST.txt and/or parts (repeatable; default gpu-bundle/)
#   --dest DIR    where the bundle is unpacked (default /tmp/sweep-gpu; kept and reused when its checksum matches)
#   --deadline S  seconds after which no step runs (default 420 with a GPU, 900 with --pocl)
#   --only LIST   some of a,b,c,d,e (default all; `./sweep devices` always runs), e.g. --only b,e to rerun those
#   --kinds LIST  device kinds in the order checked, default opencl,ptx: the first gets every step, the next ones
#                 (b) and the 3-D benchmark while the deadline allows
#   --pocl        no NVIDIA: the system's OpenCL drivers (e.g. Debian's PoCL), OpenCL only, tiny sizes; checks the
#                 bundle itself on a machine without a GPU
#   --stage DIR   only copy the parts found under --parts into DIR, verify them and say which are still missing (for
#                 bundles larger than one device call: see scripts/gpu-bundle.sh)
#   --keep        keep the temporary work folder (inputs, records, gradients)
# Needs bash, coreutils, tar, xz and python3 (standard library only, for the .npy inputs and comparisons).
# It replaces target/sweep-java.jar and target/lib/ with the bundle's and runs ./sweep with SWEEP_PREBUILT=1.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
t_start=$SECONDS

parts_dirs=()
dest=/tmp/sweep-gpu
out="${OUT:-$here/gpu-check-out}"
deadline=""
pocl=0
stage_to=""
keep=0
only=a,b,c,d,e
kinds=opencl,ptx
while [ $# -gt 0 ]; do
  case "$1" in
    --parts) parts_dirs+=("$2"); shift 2 ;;
    --dest) dest="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --deadline) deadline="$2"; shift 2 ;;
    --pocl|--no-nvidia) pocl=1; shift ;;
    --stage) stage_to="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --only) only="$2"; shift 2 ;;
    --kinds) kinds="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#parts_dirs[@]} -gt 0 ] || parts_dirs=("$here/gpu-bundle")
[ -n "$deadline" ] || deadline=$([ $pocl = 1 ] && echo 900 || echo 420)
want() { [[ ",$only," == *",$1,"* ]]; }

# ---- assembling the parts ---------------------------------------------------------------------------------------------
manifest=""
for d in "${parts_dirs[@]}"; do
  if [ -f "$d/MANIFEST.txt" ]; then manifest="$d/MANIFEST.txt"; break; fi
done
if [ -z "$manifest" ]; then
  echo "gpu-check: no MANIFEST.txt in ${parts_dirs[*]}: build the bundle with scripts/gpu-bundle.sh and carry gpu-bundle/" >&2
  exit 2
fi
archive_line="$(grep -v '^#' "$manifest" | awk '$3 == "sweep-gpu.tar.xz"')"
archive_sha="${archive_line%% *}"
mapfile -t part_lines < <(grep -v '^#' "$manifest" | awk '$3 ~ /\.part-[0-9]+$/')
find_part() {  # find_part <name>: the path of a part with that name and the manifest's size, or nothing
  local d
  for d in "${parts_dirs[@]}" ${stage_to:+"$stage_to"}; do
    if [ -f "$d/$1" ] && [ "$(stat -c %s "$d/$1")" = "$2" ]; then echo "$d/$1"; return; fi
  done
}
verify_parts() {  # fills part_paths; returns 1 when a part is missing or its checksum is wrong
  local line sha bytes name p bad=0
  part_paths=()
  for line in "${part_lines[@]}"; do
    read -r sha bytes name <<<"$line"
    p="$(find_part "$name" "$bytes")"
    if [ -z "$p" ]; then echo "  missing: $name ($bytes bytes)"; bad=1; continue; fi
    if [ "$(sha256sum "$p" | cut -d' ' -f1)" != "$sha" ]; then echo "  checksum mismatch: $p"; bad=1; continue; fi
    echo "  ok: $p"
    part_paths+=("$p")
  done
  return $bad
}

if [ -n "$stage_to" ]; then
  mkdir -p "$stage_to"
  cp "$manifest" "$stage_to/" 2>/dev/null || true
  for line in "${part_lines[@]}"; do
    read -r sha bytes name <<<"$line"
    for d in "${parts_dirs[@]}"; do
      if [ -f "$d/$name" ] && [ "$d/$name" -ef "$stage_to/$name" ]; then break; fi
      if [ -f "$d/$name" ]; then cp "$d/$name" "$stage_to/"; break; fi
    done
  done
  echo "gpu-check --stage $stage_to:"
  if verify_parts; then echo "all ${#part_lines[@]} parts are there"; else echo "parts still missing (above)"; fi
  exit 0
fi

mkdir -p "$out"
summary="$out/gpu-check-summary.txt"
: > "$summary"
work="$(mktemp -d "${TMPDIR:-/tmp}/sweep-gpu-check.XXXXXX")"
logs="$work/logs"; mkdir -p "$logs"
say() { echo "$*" | tee -a "$summary"; }
elapsed() { echo $((SECONDS - t_start)); }
finish() {
  say "total $(elapsed) s"
  cp "$summary" "$logs/" 2>/dev/null
  tar -C "$work" -czf "$out/gpu-check-logs.tar.gz" logs 2>/dev/null
  if [ $keep = 1 ]; then echo "work folder kept: $work"; else rm -rf "$work"; fi
}
trap finish EXIT

say "sweep gpu-check $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n) ($(uname -m)); mode: $([ $pocl = 1 ] && echo 'PoCL (--pocl: no NVIDIA)' || echo NVIDIA); deadline ${deadline} s"
say "bundle: $manifest ($(sed -n '1s/^# //p' "$manifest"))"
t0=$SECONDS
if [ -f "$dest/.assembled" ] && [ "$(cat "$dest/.assembled")" = "$archive_sha" ]; then
  say "[$(elapsed) s] assemble: $dest already holds archive ${archive_sha:0:12}, reused"
else
  if ! verify_parts > "$logs/00-parts.log" 2>&1; then
    cat "$logs/00-parts.log"
    say "[$(elapsed) s] assemble: FAILED, parts missing or damaged (above; staging: scripts/gpu-bundle.sh header)"
    exit 2
  fi
  rm -rf "$dest"; mkdir -p "$dest"
  cat "${part_paths[@]}" > "$work/sweep-gpu.tar.xz"
  if [ "$(sha256sum "$work/sweep-gpu.tar.xz" | cut -d' ' -f1)" != "$archive_sha" ]; then
    say "[$(elapsed) s] assemble: FAILED, the joined parts do not give the manifest's archive checksum"
    exit 2
  fi
  xz -dc "$work/sweep-gpu.tar.xz" | tar -x -C "$dest" --strip-components=1 || { say "assemble: FAILED to unpack"; exit 2; }
  rm -f "$work/sweep-gpu.tar.xz"
  echo "$archive_sha" > "$dest/.assembled"
  say "[$(elapsed) s] assemble: ${#part_paths[@]} part(s) verified (sha256) and unpacked into $dest in $((SECONDS - t0)) s"
fi
sed 's/^/  /' "$dest/BUNDLE.txt" | tee -a "$summary"
B="$(cd "$dest" && pwd)"

# ---- environment: everything from the bundle ---------------------------------------------------------------------------
find_lib() {  # find_lib <file name pattern>: a path of that library: the loader's cache, the usual driver folders, a search
  local p d
  p="$(ldconfig -p 2>/dev/null | awk -v n="$1" '$1 ~ "^"n && /x86-64/ {print $NF; exit}')"
  if [ -n "$p" ]; then echo "$p"; return; fi
  for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/lib64 /lib/x86_64-linux-gnu \
           /usr/local/cuda/compat /usr/local/cuda/lib64 ${LD_LIBRARY_PATH//:/ }; do
    p="$(ls -d "$d"/$1* 2>/dev/null | head -1)"
    if [ -n "$p" ]; then echo "$p"; return; fi
  done
  timeout 20 find / -xdev \( -path /proc -o -path /sys -o -path "$B" \) -prune -o -name "$1*" -print 2>/dev/null | head -1
}
export JAVA_HOME="$B/jdk" TORNADOVM_HOME="$B/tornadovm" SWEEP_PREBUILT=1
export PATH="$B/jdk/bin:$B/ompi/bin:$PATH"
ld="$B/opencl/lib"
if [ -d "$B/ompi" ]; then
  ld="$ld:$B/ompi/lib"
  for l in libudev.so.1 libz.so.1; do   # bundled fallbacks only where the system has none
    ldconfig -p 2>/dev/null | grep -q "^[[:space:]]*$l " || ld="$ld:$B/ompi/lib-fallback"
  done
  o="$B/ompi"
  # Open MPI and PMIx were built for /usr: these variables relocate them into the bundle
  export OPAL_PREFIX="$o" OPAL_EXEC_PREFIX="$o" OPAL_BINDIR="$o/bin" OPAL_LIBDIR="$o/lib" OPAL_PKGLIBDIR="$o/lib/openmpi3" \
         OPAL_DATAROOTDIR="$o/share" OPAL_DATADIR="$o/share" OPAL_PKGDATADIR="$o/share/openmpi" OPAL_SYSCONFDIR="$o/etc"
  export PMIX_PREFIX="$o" PMIX_EXEC_PREFIX="$o" PMIX_LIBDIR="$o/lib" PMIX_PKGLIBDIR="$o/lib/pmix" \
         PMIX_DATADIR="$o/share" PMIX_PKGDATADIR="$o/share/pmix" PMIX_SYSCONFDIR="$o/etc" \
         PMIX_MCA_mca_base_component_path="$o/lib/pmix"
  export HWLOC_PLUGINS_PATH="$o/lib/hwloc" SWEEP_MPI_LIBDIR="$o/lib"
  # single-copy shared memory (CMA) needs ptrace rights that VMs and containers often withhold
  export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
cuda_lib=""
argfile_kind=opencl
if [ $pocl = 1 ]; then
  export OCL_ICD_VENDORS="${SWEEP_OCL_VENDORS:-/etc/OpenCL/vendors}"
  say "OpenCL drivers: the system's ($OCL_ICD_VENDORS: $(ls "$OCL_ICD_VENDORS" 2>/dev/null | paste -sd' ' -)); PTX not used"
else
  export OCL_ICD_VENDORS="$B/opencl/vendors"
  rm -f "$B"/opencl/vendors/*.icd
  ocl_lib="$(find_lib libnvidia-opencl.so)"
  if [ -n "$ocl_lib" ]; then
    echo "$ocl_lib" > "$B/opencl/vendors/nvidia.icd"
    # a driver folder outside the loader's cache: the libraries beside it are needed too
    ldconfig -p 2>/dev/null | grep -q "=> $ocl_lib\$" || ld="$ld:$(dirname "$ocl_lib")"
    say "OpenCL: ICD entry $B/opencl/vendors/nvidia.icd -> $ocl_lib"
  else
    say "OpenCL: no libnvidia-opencl.so* on this machine: no OpenCL GPU device"
  fi
  cuda_lib="$(find_lib libcuda.so.1)"
  [ -n "$cuda_lib" ] || cuda_lib="$(find_lib libcuda.so)"
  if [ -n "$cuda_lib" ]; then
    ldconfig -p 2>/dev/null | grep -q "=> $cuda_lib\$" || ld="$ld:$(dirname "$cuda_lib")"
    if [ -f "$TORNADOVM_HOME/tornado-argfile-ptx.template" ]; then argfile_kind=ptx; fi
  fi
  say "CUDA driver library: ${cuda_lib:-none found}; PTX backend in the bundle: $([ -f "$TORNADOVM_HOME/tornado-argfile-ptx.template" ] && echo yes || echo no)"
fi
export LD_LIBRARY_PATH="$ld${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
use_argfile() {  # use_argfile opencl|ptx: TornadoVM's argfile for that set of backends, with the bundle's path
  sed "s|\${TORNADOVM_HOME}|$TORNADOVM_HOME|g" "$TORNADOVM_HOME/tornado-argfile-$1.template" > "$TORNADOVM_HOME/tornado-argfile"
  argfile_kind=$1
}
use_argfile $argfile_kind
mkdir -p target
rm -rf target/lib
cp "$B/app/sweep-java.jar" target/sweep-java.jar
cp -r "$B/app/lib" target/lib
echo tornado > target/sweep-java.profile
# the same environment for commands typed by hand: . /tmp/sweep-gpu/env.sh
env | grep -E '^(JAVA_HOME|TORNADOVM_HOME|SWEEP_|PATH|LD_LIBRARY_PATH|OCL_ICD_VENDORS|OPAL_|PMIX_|HWLOC_|OMPI_)' \
  | sed "s/^\([^=]*\)=\(.*\)$/export \1='\2'/" > "$B/env.sh"
cp "$B/env.sh" "$logs/env.sh"
if command -v java >/dev/null 2>&1 && [ "$(command -v java)" != "$B/jdk/bin/java" ]; then
  say "note: PATH has another java first: $(command -v java)"
fi

# ---- steps --------------------------------------------------------------------------------------------------------------
nstep=0
failed=0
run_step() {  # run_step <name> <timeout s> <command...>: logged, timed, bounded by the deadline; returns its status
  local name="$1" limit="$2" left rc t
  shift 2
  nstep=$((nstep + 1))
  left=$((deadline - $(elapsed)))
  step_log="$logs/$(printf '%02d' $nstep)-$name.log"
  if [ $left -lt 5 ]; then
    say "[$(elapsed) s] $name: SKIPPED (deadline ${deadline} s reached)"
    return 124
  fi
  [ $limit -le $left ] || limit=$left
  t=$SECONDS
  echo "\$ $*" > "$step_log"
  timeout -k 10 "$limit" "$@" >> "$step_log" 2>&1
  rc=$?
  step_secs=$((SECONDS - t))
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    say "[$(elapsed) s] $name: TIMED OUT after ${step_secs} s (limit ${limit} s); log $(basename "$step_log")"
  elif [ $rc != 0 ]; then
    say "[$(elapsed) s] $name: FAILED (exit $rc, ${step_secs} s): $(grep -v '^\$ \|WARNING' "$step_log" | tail -2 | tr '\n' ' ' | cut -c1-300)"
  elif grep -q 'clEnqueueNDRangeKernel -> Returned' "$step_log"; then
    # TornadoVM logs a kernel the OpenCL driver refused and goes on: the run's results are not valid
    say "[$(elapsed) s] $name: INVALID: $(grep -c 'clEnqueueNDRangeKernel -> Returned' "$step_log") kernel launches refused ($(grep -o 'Returned: -[0-9]*' "$step_log" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')); log $(basename "$step_log")"
    rc=3
  fi
  [ $rc = 0 ] || failed=$((failed + 1))
  return $rc
}

# (a) the machine and the devices
nvsmi="$(command -v nvidia-smi || ls /usr/local/nvidia/bin/nvidia-smi /usr/bin/nvidia-smi 2>/dev/null | head -1)"
if [ $pocl = 0 ] && want a; then
  if run_step nvidia-smi 30 "${nvsmi:-nvidia-smi}"; then
    say "[$(elapsed) s] nvidia-smi ($step_secs s):"
    sed -n '2,12p' "$step_log" | sed 's/^/  /' | tee -a "$summary"
    "$nvsmi" --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv \
      >> "$logs/nvidia-smi-query.log" 2>&1 && sed 's/^/  /' "$logs/nvidia-smi-query.log" | tee -a "$summary"
  fi
fi
devices() {  # runs ./sweep devices; sets dev_lines
  run_step "devices-$argfile_kind" 120 ./sweep devices || true
  dev_lines="$(grep -E '^(java|tornado) ' "$step_log")"
}
devices
if [ $argfile_kind = ptx ] && ! grep -qE '^tornado +[0-9]+:[0-9]+ ' <<<"$dev_lines"; then
  say "[$(elapsed) s] TornadoVM with the PTX backend listed no device: $(grep -v '^\$ \|WARNING' "$step_log" | tail -3 | tr '\n' ' ' | cut -c1-400)"
  say "  retrying with the OpenCL backend alone"
  use_argfile opencl
  devices
fi
say "[$(elapsed) s] ./sweep devices (argfile: $argfile_kind, $step_secs s):"
sed 's/^/  /' <<<"$dev_lines" | tee -a "$summary"
dev_of() { grep -E '^tornado +[0-9]+:[0-9]+ ' <<<"$dev_lines" | grep -iE "$1" | head -1 | awk '{print $2}'; }
if [ $pocl = 1 ]; then
  ocl_dev="$(dev_of 'OpenCL')"; ptx_dev=""
else
  ocl_dev="$(grep -E '^tornado +[0-9]+:[0-9]+ ' <<<"$dev_lines" | grep -i 'opencl' | grep -iE 'nvidia|h100|h200|gpu' \
             | head -1 | awk '{print $2}')"
  ptx_dev="$(dev_of 'PTX')"
fi
targets=()
for k in ${kinds//,/ }; do
  case "$k" in
    opencl) [ -n "$ocl_dev" ] && targets+=("$ocl_dev:opencl") ;;
    ptx) [ -n "$ptx_dev" ] && targets+=("$ptx_dev:ptx") ;;
    *) say "--kinds: unknown kind '$k' (opencl, ptx)"; exit 2 ;;
  esac
done
if [ ${#targets[@]} = 0 ]; then
  if [ $pocl = 0 ]; then   # the ICD loader's own account of what it found
    OCL_ICD_DEBUG=7 timeout 60 ./sweep devices > "$logs/devices-ocl-icd-debug.log" 2>&1
    say "no GPU device found; the OpenCL ICD loader's debug output is in devices-ocl-icd-debug.log:"
    grep -i 'ocl-icd\|error\|nvidia' "$logs/devices-ocl-icd-debug.log" | head -12 | sed 's/^/  /' | tee -a "$summary"
  else
    say "no OpenCL device found"
  fi
  exit 1
fi
say "devices to check: ${targets[*]} (first: all checks; second: identity and 3-D benchmark, time permitting)"

# (b) inputs: small 2-D and 3-D problems: a layered model with a fast lens; the gradients' start model is 5 % slower
# and has no lens, so that the direct waves already leave residuals; one CPML velocity for both (--max-vel)
cat > "$work/npy.py" <<'PY'
"""Minimal .npy writer/comparer (standard library only): gen DIR | cmp A B."""
import ast, math, struct, sys
from array import array

def write(path, code, shape, values):
    a = array(code, values)
    descr = {'f': '<f4', 'i': '<i4'}[code]
    shp = '(%d,)' % shape[0] if len(shape) == 1 else '(' + ', '.join(str(s) for s in shape) + ')'
    h = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shp)
    h += ' ' * (63 - (10 + len(h)) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode('latin1') + a.tobytes())

def read(path):
    with open(path, 'rb') as f:
        b = f.read()
    major = b[6]
    hl, off = (struct.unpack('<H', b[8:10])[0], 10) if major == 1 else (struct.unpack('<I', b[8:12])[0], 12)
    h = ast.literal_eval(b[off:off + hl].decode('latin1'))
    a = array('f')
    if h['descr'] != '<f4':
        raise SystemExit('%s: dtype %s, expected <f4' % (path, h['descr']))
    a.frombytes(b[off + hl:])
    return tuple(h['shape']), a, b[off + hl:]

def model(shape, lens, scale=1.0):
    nz = shape[0]
    out = []
    for idx in range(math.prod(shape)):
        c, z = [], idx
        for n in reversed(shape):
            c.append(z % n); z //= n
        c.reverse()                                   # (z, [y,] x)
        v = 1500.0 + 900.0 * c[0] / (nz - 1)
        centre = [0.6 * nz] + [n / 2 for n in shape[1:]]
        if lens and sum((ci - m) ** 2 for ci, m in zip(c, centre)) < (0.15 * nz) ** 2:
            v = 2800.0
        out.append(scale * v)
    return out

def gen(d):
    s2 = (60, 90)
    write(d + '/vp2.npy', 'f', s2, model(s2, True))
    write(d + '/vp2s.npy', 'f', s2, model(s2, False, 0.95))
    write(d + '/src2.npy', 'i', (2, 1, 2), [20, 3, 70, 3])                       # (B, n, (x, z))
    # visco-acoustic: density and Q from the same layers and lens (Q 20 in the lens, 60 elsewhere)
    write(d + '/rho2.npy', 'f', s2, [1000.0 + 0.5 * v for v in model(s2, True)])
    write(d + '/q2.npy', 'f', s2, [20.0 if v == 2800.0 else 60.0 for v in model(s2, True)])
    rec = [v for x in range(2, 89, 2) for v in (x, 3)]
    write(d + '/rec2.npy', 'i', (2, len(rec) // 2, 2), rec + rec)
    s3 = (30, 32, 36)
    write(d + '/vp3.npy', 'f', s3, model(s3, True))
    write(d + '/vp3s.npy', 'f', s3, model(s3, False, 0.95))
    write(d + '/src3.npy', 'i', (1, 1, 3), [18, 16, 3])                          # (B, n, (x, y, z))
    rec = [v for x in range(2, 35, 2) for v in (x, 16, 3)] + [v for y in range(2, 31, 4) for v in (18, y, 3)]
    write(d + '/rec3.npy', 'i', (1, len(rec) // 3, 3), rec)

def cmp(a, b):
    sa, xa, ra = read(a)
    sb, xb, rb = read(b)
    ref = max((abs(v) for v in xa), default=0.0)
    if sa != sb:
        print('shapes differ: %s vs %s' % (sa, sb)); return 2
    if ra == rb:
        print('bit-identical (%d values, max|ref| %.3e)' % (len(xa), ref)); return 0
    d = max(abs(u - v) for u, v in zip(xa, xb))
    print('differ: max|d| %.3e = %.2e of max|ref| %.3e (%d values)' % (d, d / ref if ref else float('inf'), ref, len(xa)))
    return 1

if __name__ == '__main__':
    if sys.argv[1] == 'gen':
        gen(sys.argv[2])
    else:
        sys.exit(cmp(sys.argv[2], sys.argv[3]))
PY
in="$work/in"; mkdir -p "$in"
python3 "$work/npy.py" gen "$in" || { say "python3 could not write the inputs"; exit 1; }
# fewer steps on PoCL, where each step costs its kernels' launch overheads on the CPU
nt2=300; nt3=150; [ $pocl = 1 ] && { nt2=150; nt3=60; }
p2=(--dh 10 --dt 0.001 --nt $nt2 --sources "$in/src2.npy" --receivers "$in/rec2.npy" --ricker 15 --free-surface --max-vel 2800)
p3=(--dh 10 --dt 0.001 --nt $nt3 --sources "$in/src3.npy" --receivers "$in/rec3.npy" --ricker 15 --max-vel 2800)
r="$work/r"; mkdir -p "$r"
# case name -> command line (without backend options and output file); gradients: the start model against the
# Java record of the true model
declare -A case_cmd=(
  [fwd2]="forward --vp $in/vp2.npy ${p2[*]} --out"
  [fwd3]="forward --vp $in/vp3.npy ${p3[*]} --out"
  [grad2]="gradient --vp $in/vp2s.npy ${p2[*]} --observed $r/java-fwd2.npy --out-grad"
  [grad2full]="gradient --vp $in/vp2s.npy ${p2[*]} --observed $r/java-fwd2.npy --storage full --out-grad"
  [grad3]="gradient --vp $in/vp3s.npy ${p3[*]} --observed $r/java-fwd3.npy --out-grad"
  [vfwd2]="forward --equation visco-acoustic --vp $in/vp2.npy --rho $in/rho2.npy --q $in/q2.npy ${p2[*]} --out"
  [vgrad2]="gradient --equation visco-acoustic --vp $in/vp2s.npy --rho $in/rho2.npy --q $in/q2.npy ${p2[*]}
    --observed $r/java-vfwd2.npy --out-grad"
)
# vgrad2: the visco-acoustic gradient with its default storage, checkpointing (the memory variables and the
# segments' re-runs on the device)
cases=(fwd2 fwd3 grad2 grad2full grad3 vfwd2 vgrad2)
t0=$SECONDS
want b || cases=(fwd2 fwd3)    # (e) compares with the forward records alone
want b || want e || cases=()
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086 # the command lines are word lists of plain paths and numbers
  run_step "java-$c" 120 ./sweep ${case_cmd[$c]} "$r/java-$c.npy" --backend java
done
say "[$(elapsed) s] Java backend references: ${#cases[@]} runs in $((SECONDS - t0)) s"
identity() {  # identity <device> <kind>: strict math bit-identity and default-math differences, one line per case
  local dev="$1" kind="$2" c mode opts res t
  for mode in strict default; do
    opts=(--backend tornado --device "$dev"); [ $mode = strict ] && opts+=(--strict-math)
    t=$SECONDS
    for c in "${cases[@]}"; do
      if [ ! -f "$r/java-$c.npy" ]; then say "  $kind $mode $c: no Java reference"; continue; fi
      # shellcheck disable=SC2086
      run_step "$kind-$mode-$c" 150 ./sweep ${case_cmd[$c]} "$r/$kind-$mode-$c.npy" "${opts[@]}" || continue
      res="$(python3 "$work/npy.py" cmp "$r/java-$c.npy" "$r/$kind-$mode-$c.npy")"
      if [ $mode = strict ]; then
        case "$res" in bit-identical*) ;; *) failed=$((failed + 1)) ;; esac
      fi
      say "  [$(elapsed) s] $kind $dev $mode-math $c ($step_secs s): $res"
    done
    say "  $kind $mode math: $((SECONDS - t)) s"
  done
}
bench() {  # bench <device> <kind> <name> <bench options...>: the table rows and gradient lines of ./sweep bench
  local dev="$1" kind="$2" name="$3"
  shift 3
  SWEEP_JAVA_OPTS="${SWEEP_JAVA_OPTS:-$bench_heap}" run_step "$kind-bench-$name" "$bench_limit" \
    ./sweep bench "$@" --backend tornado --device "$dev" || return
  say "  [$(elapsed) s] $kind $dev bench $* ($step_secs s):"
  grep -E '^[23]-D |ratio [0-9]| on |steady steps' "$step_log" | sed 's/^ */    /' | tee -a "$summary"
}
if [ $pocl = 1 ]; then
  b3=(--only 3d --size 40 --steps 4 --repeats 2 --bandwidth 40); b2=(--only 2d --size 200 --steps 4 --repeats 2 --bandwidth 40)
  bg=(--gradient --only 3d --size 20 --steps 6 --repeats 1 --bandwidth 40); bench_heap=-Xmx2g; bench_limit=240
else
  b3=(--only 3d --size 512 --steps 100 --repeats 5 --bandwidth 4800)
  b2=(--only 2d --size 8000 --steps 100 --repeats 5 --bandwidth 4800)
  bg=(--gradient --only 3d --size 320 --steps 300 --repeats 3 --bandwidth 4800); bench_limit=240
  # TornadoVM caps what it allocates on a device at tornado.device.memory (default 4 GB): 512^3 needs more
  bench_heap="-Xmx64g -Dtornado.device.memory=100GB"
fi

first=1
for tgt in "${targets[@]}"; do
  dev="${tgt%:*}"; kind="${tgt##*:}"
  say "[$(elapsed) s] == $kind device $dev =="
  # (b) identity
  want b && identity "$dev" "$kind"
  # (c) throughput, (d) gradient / forward
  want c && bench "$dev" "$kind" 3d "${b3[@]}"
  if [ $first = 1 ]; then
    want c && bench "$dev" "$kind" 2d "${b2[@]}"
    want d && bench "$dev" "$kind" gradient "${bg[@]}"
    # (e) 2 ranks on the one device, against one domain (the Java record: strict math is bit-identical to it)
    if ! want e; then
      :
    elif [ -x "$B/ompi/bin/mpirun" ]; then
      for c in fwd2 fwd3; do
        # shellcheck disable=SC2086
        if run_step "$kind-mpi2-$c" 180 mpirun -np 2 --bind-to none --oversubscribe \
             ./sweep ${case_cmd[$c]} "$r/$kind-mpi2-$c.npy" --px 2 --backend tornado --strict-math --device "$dev"; then
          res="$(python3 "$work/npy.py" cmp "$r/java-$c.npy" "$r/$kind-mpi2-$c.npy")"
          case "$res" in bit-identical*) ;; *) failed=$((failed + 1)) ;; esac
          say "  [$(elapsed) s] $kind $dev mpirun -np 2 --px 2 strict-math $c ($step_secs s) vs one domain (Java): $res"
        fi
      done
    else
      say "  no Open MPI in the bundle: 2-rank check skipped"
    fi
  fi
  first=0
done
say "[$(elapsed) s] done: $failed failed or differing step(s)"
[ $failed = 0 ]
