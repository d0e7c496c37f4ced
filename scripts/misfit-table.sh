#!/usr/bin/env bash
# The misfit table of docs/fwi-jobs.md: FWI of the built-in model from a start that makes L2 cycle-skip (the water
# layer kept, below it a 1-D velocity rising linearly from 1700 m/s under the sea floor to 2900 m/s at 2 km), with
# the demo's shots and bands (2.5, 4 Hz, all; 6 iterations each), once per misfit; prints each one's model RMS error.
# With START=smooth the start is instead the true model smoothed over 1 km (a 51-cell box along z and x) and 10 %
# slow below the water layer (at least 1500 m/s). Needs python3 with numpy (Debian: python3-numpy) for the start.
# Usage: [START=linear|smooth] scripts/misfit-table.sh [OUT [KEYS]], KEYS more job keys for every run, e.g.
# '"smooth_gradient": 300'.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mkdir -p "${1:-misfit-table-out}" && cd "${1:-misfit-table-out}" && pwd)"
"$here/sweep" fwi --iterations 0 --bands 0 --out "$out/true" > /dev/null
start="${START:-linear}"
case "$start" in linear | smooth) ;; *) echo "START must be linear or smooth, not $start" >&2; exit 2 ;; esac
python3 - "$out" "$start" <<'PY'
import sys
import numpy as np
out, kind = sys.argv[1], sys.argv[2]
v = np.load(out + "/true/model_true.npy").astype(np.float64)
water = int(np.argmax(v.min(axis=1) > v[0].max()))  # the rows at the top velocity
start = v.copy()
if kind == "linear":
    z = np.arange(v.shape[0])
    start[water:] = (1700 + 1200 * (z[water:] - water) / (v.shape[0] - 1 - water))[:, None]
else:
    def box(a, n, axis):  # the mean over n cells along axis, the edges repeated
        pad = [(0, 0)] * a.ndim
        pad[axis] = (n // 2, n // 2)
        c = np.insert(np.cumsum(np.pad(a, pad, mode="edge"), axis=axis), 0, 0, axis=axis)
        m = c.shape[axis]
        return (np.take(c, range(n, m), axis=axis) - np.take(c, range(0, m - n), axis=axis)) / n
    start[water:] = np.maximum(0.9 * box(box(v, 51, 0), 51, 1)[water:], 1500)
np.save(out + "/start_" + kind + ".npy", start.astype(np.float32))
PY
printf '| misfit | model RMS error start → final (m/s) | FWI seconds |\n|---|---|---|\n'
for m in l2 ncc envelope awi; do
  printf '{"vp_true": "default", "vp_start": "%s", "misfit": "%s"%s}\n' "$out/start_$start.npy" "$m" \
    "${2:+, $2}" > "$out/$m.json"
  "$here/sweep" fwi --job "$out/$m.json" --iterations 6 --bands 2.5,4,0 --out "$out/$m" > "$out/$m.log" 2>&1
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print('| %s | %.1f → %.1f | %.0f |' % (sys.argv[2],
s['model_rms_error_start'], s['model_rms_error_final'], s['seconds_total']))" "$out/$m/summary.json" "$m"
done
