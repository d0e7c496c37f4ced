#!/usr/bin/env bash
# Checks a GPU bundle here, the way the GPU machine will see it: a fresh clone of HEAD plus the parts, run in a mount
# namespace that hides this machine's JDKs, TornadoVM SDKs, Open MPI, PMIx, OpenCL ICD loader, Maven and apt-get,
# started with `env -i` (PATH=/usr/bin:/bin, no JAVA_HOME, no TORNADOVM_HOME): `scripts/gpu-check.sh --pocl`, with the
# system's PoCL as the OpenCL device. Needs root (unshare -m); nothing outside the namespace changes.
# Usage: scripts/gpu-check-local.sh [--parts DIR] [--hide PATH]... [--staged] [-- gpu-check options]
#   --parts DIR   the bundle (default gpu-bundle/)
#   --hide PATH   hide this folder or file too (repeatable; TORNADOVM_HOME, when set, is hidden anyway)
#   --staged      one simulated device call per part: each earlier part alone in the clone, copied out with
#                 `gpu-check.sh --stage`, the last one with the check (the plan for bundles of several parts)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
parts="$here/gpu-bundle"
hide=(/usr/lib/jvm /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 /usr/share/openmpi /etc/openmpi
      /usr/share/maven "$HOME/.m2" /usr/bin/mvn /usr/bin/apt-get /usr/bin/orterun /usr/bin/orted)
for l in libmpi.so.40 libopen-rte.so.40 libopen-pal.so.40 libmpi_java.so.40 libpmix.so.2 libOpenCL.so.1; do
  hide+=("/usr/lib/x86_64-linux-gnu/$l")
done
[ -n "${TORNADOVM_HOME:-}" ] && hide+=("$(cd "$TORNADOVM_HOME" && pwd -P)")
staged=0
while [ $# -gt 0 ]; do
  case "$1" in
    --parts) parts="$(cd "$2" && pwd)"; shift 2 ;;
    --hide) hide+=("$2"); shift 2 ;;
    --staged) staged=1; shift ;;
    --) shift; break ;;
    *) echo "gpu-check-local: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "gpu-check-local: needs root (unshare -m, mount --bind)" >&2; exit 2; }
[ -f "$parts/MANIFEST.txt" ] || { echo "gpu-check-local: no $parts/MANIFEST.txt: run scripts/gpu-bundle.sh" >&2; exit 2; }

t="$(mktemp -d "${TMPDIR:-/tmp}/sweep-gpu-local.XXXXXX")"
git clone -q "$here" "$t/repo"
git -C "$t/repo" checkout -q "$(git -C "$here" rev-parse HEAD)"
mkdir -p "$t/home" "$t/empty" "$t/repo/gpu-bundle"
touch "$t/empty-file"
echo "clone of $(git -C "$t/repo" log --oneline -1) in $t/repo; hidden: ${hide[*]}"

inner="$t/inner.sh"
cat > "$inner" <<'SH'
set -euo pipefail
t="$1"; parts="$2"; staged="$3"; shift 3
for p in $HIDE; do
  if [ -d "$p" ]; then mount --bind "$t/empty" "$p"; elif [ -e "$p" ]; then mount --bind "$t/empty-file" "$p"; fi
done
clean() { env -i HOME="$t/home" PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"; }
clean bash -c 'for c in java javac mvn apt-get mpirun; do
                 if p="$(command -v $c)" && [ -x "$p" ]; then echo "still runnable: $c ($p)"; exit 3; fi; done
               echo "no java, javac, mvn, apt-get or mpirun on PATH=$PATH; TORNADOVM_HOME=${TORNADOVM_HOME:-unset}"'
mapfile -t names < <(grep -v '^#' "$parts/MANIFEST.txt" | awk '$3 ~ /\.part-[0-9]+$/ {print $3}')
cp "$parts/MANIFEST.txt" "$t/repo/gpu-bundle/"
if [ "$staged" = 1 ]; then
  for n in "${names[@]:0:${#names[@]}-1}"; do          # earlier calls: one part each, copied out of the tree
    rm -f "$t"/repo/gpu-bundle/*.part-*; cp "$parts/$n" "$t/repo/gpu-bundle/"
    s=$SECONDS
    (cd "$t/repo" && clean bash scripts/gpu-check.sh --stage "$t/staged")
    echo "simulated call with $n: $((SECONDS - s)) s"
  done
  rm -f "$t"/repo/gpu-bundle/*.part-*; cp "$parts/${names[-1]}" "$t/repo/gpu-bundle/"
  set -- --parts gpu-bundle --parts "$t/staged" "$@"
else
  cp "$parts"/*.part-* "$t/repo/gpu-bundle/"
fi
s=$SECONDS
rc=0
(cd "$t/repo" && clean bash scripts/gpu-check.sh --pocl --dest "$t/sweep-gpu" --out "$t/out" "$@") || rc=$?
echo "gpu-check.sh --pocl: exit $rc, $((SECONDS - s)) s; summary $t/out/gpu-check-summary.txt"
exit $rc
SH
HIDE="${hide[*]}" unshare -m bash "$inner" "$t" "$parts" "$staged" "$@"
