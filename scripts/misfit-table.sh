#!/usr/bin/env bash
# The misfit table of docs/fwi-jobs.md: FWI of the built-in model from a start that makes L2 cycle-skip (the water
# layer kept, below it a 1-D velocity rising linearly from 1700 m/s under the sea floor to 2900 m/s at 2 km), with
# the demo's shots and bands (2.5, 4 Hz, all; 6 iterations each), once per misfit; prints each one's model RMS error.
# Needs python3 with numpy (Debian: python3-numpy) for the starting model.
# Usage: scripts/misfit-table.sh [OUT [KEYS]], KEYS more job keys for every run, e.g. '"smooth_gradient": 300'.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mkdir -p "${1:-misfit-table-out}" && cd "${1:-misfit-table-out}" && pwd)"
"$here/sweep" fwi --iterations 0 --bands 0 --out "$out/true" > /dev/null
python3 - "$out" <<'PY'
import sys
import numpy as np
out = sys.argv[1]
v = np.load(out + "/true/model_true.npy")
water = int(np.argmax(v.min(axis=1) > v[0].max()))  # the rows at the top velocity
start = v.copy()
z = np.arange(v.shape[0])
start[water:] = (1700 + 1200 * (z[water:] - water) / (v.shape[0] - 1 - water))[:, None]
np.save(out + "/start_linear.npy", start.astype(np.float32))
PY
printf '| misfit | model RMS error start → final (m/s) | FWI seconds |\n|---|---|---|\n'
for m in l2 ncc envelope awi; do
  printf '{"vp_true": "default", "vp_start": "%s", "misfit": "%s"%s}\n' "$out/start_linear.npy" "$m" \
    "${2:+, $2}" > "$out/$m.json"
  "$here/sweep" fwi --job "$out/$m.json" --iterations 6 --bands 2.5,4,0 --out "$out/$m" > "$out/$m.log" 2>&1
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print('| %s | %.1f → %.1f | %.0f |' % (sys.argv[2],
s['model_rms_error_start'], s['model_rms_error_final'], s['seconds_total']))" "$out/$m/summary.json" "$m"
done
