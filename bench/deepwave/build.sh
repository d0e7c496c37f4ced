#!/usr/bin/env bash
# Builds sweep-java's Deepwave benchmark drivers against a Deepwave source checkout, outside this repository:
#   bench/deepwave/build.sh DEEPWAVE_SRC OUT_DIR
# DEEPWAVE_SRC: a checkout of github.com/ar4/deepwave (its CMakeLists.txt and src/deepwave/*.c). OUT_DIR: where the
# eight drivers go (dw_scalar_2d/3d, dw_scalar_born_2d/3d, dw_acoustic_2d/3d, dw_elastic_2d/3d) with BUILD.txt, the
# lines used; it must lie outside this repository (nothing of Deepwave is committed). Then:
# ./sweep bench --compare-deepwave OUT_DIR. dw_scalar_born_2d/3d (Deepwave's Born propagator, background and
# scattered wavefield, forward) speak the same protocol as the scalar forward driver; see dw_driver.c.
#
# Deepwave's own CPU flags are used: its CMakeLists.txt compiles each kernel as an object with the Release flags
# (-O3 -DNDEBUG), -Ofast, -mavx2 (when the compiler accepts it) and OpenMP, once per (ndim, accuracy, dtype) with
# -DDW_NDIM, -DDW_ACCURACY, -DDW_DTYPE, -DDW_DEVICE=cpu; this script checks that the checkout still says -Ofast and
# -mavx2 and compiles scalar.c, scalar_born.c, acoustic.c and elastic.c (order 8, float, 2-D and 3-D) and the storage
# helpers they call the same way. The drivers are linked without -Ofast, as Deepwave's shared library is (gcc adds
# the flush-to-zero start-up file only to executables linked with -Ofast, never to -shared objects), so denormals are
# handled as under PyTorch.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 DEEPWAVE_SRC OUT_DIR" >&2
  exit 2
fi
src="$(cd "$1" && pwd)"
mkdir -p "$2"
out="$(cd "$2" && pwd)"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
case "$out/" in
  "$repo"/*) echo "OUT_DIR $out lies inside the repository $repo: choose a folder outside it" >&2; exit 2 ;;
esac
dw="$src/src/deepwave"
for f in "$src/CMakeLists.txt" "$dw/scalar.c" "$dw/scalar_born.c" "$dw/acoustic.c" "$dw/elastic.c" \
    "$dw/storage_utils.c" "$dw/simple_compress.c"; do
  if [ ! -f "$f" ]; then
    echo "$f is missing: DEEPWAVE_SRC must be a Deepwave source checkout (github.com/ar4/deepwave)" >&2
    exit 2
  fi
done
for flag in -Ofast -mavx2; do
  if ! grep -q -- "\"$flag\"" "$src/CMakeLists.txt"; then
    echo "Deepwave's CMakeLists.txt no longer sets $flag: check its CPU flags and update $0" >&2
    exit 2
  fi
done
cc="${CC:-gcc}"
flags=(-O3 -DNDEBUG -Ofast -mavx2 -fopenmp -fPIC)
if ! echo 'int main(void){return 0;}' | "$cc" -mavx2 -x c - -o /dev/null 2>/dev/null; then
  flags=(-O3 -DNDEBUG -Ofast -fopenmp -fPIC) # Deepwave drops -mavx2 where the compiler rejects it
fi
obj="$out/obj" # Deepwave's objects, kept: a rebuild after a driver change only relinks
mkdir -p "$obj"
{
  echo "Deepwave source: $src"
  if git -C "$src" rev-parse HEAD >/dev/null 2>&1; then echo "Deepwave commit: $(git -C "$src" rev-parse HEAD)"; fi
  echo "compiler: $("$cc" --version | head -1)"
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
} > "$out/BUILD.txt"
for nd in 2 3; do
  defs=(-DDW_NDIM=$nd -DDW_ACCURACY=8 -DDW_DTYPE=float -DDW_DEVICE=cpu)
  objs=()
  for unit in storage_utils simple_compress scalar scalar_born acoustic elastic; do
    o="$obj/${unit}_$nd.o"
    line=("$cc" "${flags[@]}" "${defs[@]}" -I"$dw" -c "$dw/$unit.c" -o "$o")
    echo "${line[*]}" >> "$out/BUILD.txt"
    if [ ! -f "$o" ] || [ "$dw/$unit.c" -nt "$o" ] || [ "$0" -nt "$o" ]; then
      "${line[@]}"
    fi
    objs+=("$o")
  done
  for eq in scalar scalar_born acoustic elastic; do
    extra=()
    if [ $eq = elastic ]; then extra=(-DDW_ELASTIC); fi
    if [ $eq = acoustic ]; then extra=(-DDW_ACOUSTIC); fi
    if [ $eq = scalar_born ]; then extra=(-DDW_SCALAR_BORN); fi
    line=("$cc" -O2 -DDW_NDIM=$nd "${extra[@]}" "$here/dw_driver.c" "${objs[@]}" -fopenmp -lm -o "$out/dw_${eq}_${nd}d")
    echo "${line[*]}" >> "$out/BUILD.txt"
    "${line[@]}"
  done
done
echo "built $out/dw_scalar_2d/3d, dw_scalar_born_2d/3d, dw_acoustic_2d/3d, dw_elastic_2d/3d (lines in $out/BUILD.txt)"
