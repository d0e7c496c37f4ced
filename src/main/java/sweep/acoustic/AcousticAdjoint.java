package sweep.acoustic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sweep.backend.CpuKernels;
import sweep.backend.JavaBackend;
import sweep.core.Box;
import sweep.equation.StateVector;
import sweep.equation.StepStages;
import sweep.kernels.Layout;
import sweep.kernels.Sources;
import sweep.prop.Grid;
import sweep.prop.HaloHook;
import sweep.prop.Storage;
import sweep.prop.WavefieldListener;
import sweep.prop.spi.GridView;

/**
 * The backward (adjoint) time loop of one grid on the Java backend: from the {@link AcousticTape} a gradient-capable
 * forward run recorded ({@link AcousticTapeRecorder}, owned here with the run's buffers) it turns a residual into
 * dJ/dv²dt² on the computational grid, each pass a loop over boxes calling the forward stepper's
 * {@link AcousticKernelSet}. Allocated only when a gradient is first asked for.
 */
final class AcousticAdjoint {
    private final Grid g;
    private final AcousticStepper fwd;
    private final JavaBackend backend;
    private final Storage storage;
    private final HaloHook halo;
    private final List<Box> band;
    private final List<Box> all;
    /** The interior box (outside every band) as a list: empty or one box. */
    private final List<Box> inner;
    private final Box clearInner;
    /** The interior box (outside every band), or null. */
    private final Box inBox;
    /**
     * The cells whose whole stencil lies in the interior box (the interior box shrunk by h on every side: away from
     * bands, tile cuts and the free surface), or null: the fused pass may form their λ, since there w = v2·qb is
     * written by the rebuild itself; {@link #clearLessFuse} is the stencil-clear box less it.
     */
    private final Box fuseBox;
    private final List<Box> clearLessFuse;
    private final List<Box> clearInnerList;
    /** Per chunk of the fused pass, the rows [lo, hi) of {@link #fuseBox} whose λ it formed (empty: lo = hi). */
    private final int[] fusedRows;
    private final List<Box> clearOuter;
    /** Records the tapes and gives this run their rings and forward terms back. */
    private final AcousticTapeRecorder tapes;
    /** The forward stepper's kernel set (Vector API or portable: same bits either way). */
    private final AcousticKernelSet kernels;
    /** The portable set, for the one-cell Laplacian at source cells. */
    private final AcousticKernelSet portable;
    /**
     * The fused pass's blocks: the interior box in blocks of {@link #yBlock} rows along y (one block in 2-D), and per
     * block the box of fuseBox rows whose λ the pass forms behind it (null: none).
     */
    private final Box[] rebuildBlocks;
    private final Box[] lambdaBlocks;
    /** The adjoint run's arrays (λ, q̄, w, the gradient, d, the adjoint CPML auxiliaries, the rebuilt levels). */
    private final AcousticAdjointArrays adj;
    /**
     * Rows per y block of the 3-D fused pass, so that the planes its stencils read stay in cache while the block is
     * swept over z ({@value CpuKernels#ADJ_Y_BLOCK_PROPERTY}; the default is the best block measured on a 256³ grid).
     */
    private final int yBlock = Integer.getInteger(CpuKernels.ADJ_Y_BLOCK_PROPERTY, 48);
    /** Per-thread scratch rows of the CPU kernels, indexed by chunk. */
    private final float[][] scratch;
    /** Test hook: receives each wavefield level the boundary-saving run rebuilds (physical region). */
    WavefieldListener rebuildListener;

    // The arrays of the current pass, read by the loop bodies below (built once: a step allocates nothing).
    private float[] sQ;
    private float[] sOut;
    private float[] sCur;
    private float[] sNxt;
    private float[] sD;
    private int sRev;
    private final JavaBackend.ChunkBody reversePass = (c, r0, r1) -> reverseRows(r0, r1);
    private final JavaBackend.ChunkBody scalePass = (c, r0, r1) -> scaleAllRows(r0, r1);
    private final JavaBackend.ChunkBody rebuildPass = (c, r0, r1) -> rebuildRows(c, r0, r1);
    private final JavaBackend.ChunkBody psiPass = (c, r0, r1) -> psiRows(c, r0, r1);
    private final JavaBackend.ChunkBody lambdaPass = (c, r0, r1) -> lambdaRows(c, r0, r1);
    private final JavaBackend.ChunkBody mirrorAdjPass = (c, y0, y1) -> mirrorAdjointRows(y0, y1);
    private final JavaBackend.ChunkBody ghostPass = (c, y0, y1) -> ghostRows(y0, y1);
    private final JavaBackend.ChunkBody mirrorPass = (c, y0, y1) -> mirrorRows(y0, y1);

    AcousticAdjoint(Grid g, AcousticStepper fwd, JavaBackend backend, Storage storage, HaloHook halo) {
        this.g = g;
        this.halo = halo;
        this.fwd = fwd;
        this.backend = backend;
        this.storage = storage;
        this.kernels = fwd.kernels();
        this.portable = AcousticKernelSet.of(g.ndim, false);
        GridView view = g.view();
        this.band = view.pmlBoxes();
        this.all = List.of(view.allBox());
        Box in = view.interiorBox();
        this.inner = in == null ? List.of() : List.of(in);
        this.clearInner = view.stencilClearBox();
        this.clearOuter = view.stencilClearOuter();
        this.inBox = in;
        int hh = g.h;
        this.fuseBox = in == null ? null : Box.orNull(in.z0() + hh, in.z1() - hh, g.ndim == 3 ? in.y0() + hh : 0,
                g.ndim == 3 ? in.y1() - hh : 1, in.x0() + hh, in.x1() - hh);
        this.clearLessFuse = clearInner == null ? List.of() : clearInner.minus(fuseBox);
        this.clearInnerList = clearInner == null ? List.of() : List.of(clearInner);
        this.fusedRows = new int[2 * backend.threads()];
        List<Box> blocks = new ArrayList<>();
        List<Box> lambdas = new ArrayList<>();
        if (in != null) {
            // λ lags h rows in y behind a block in 3-D (its y stencil reaches into the next block), the last block
            // ending where fuseBox ends
            int lag = g.ndim == 3 ? hh : 0;
            int blk = yBlock > 0 ? yBlock : in.y1() - in.y0();
            for (int ya = in.y0(); ya < in.y1(); ya += blk) {
                int ye = Math.min(in.y1(), ya + blk);
                blocks.add(in.withY(ya, ye));
                Box f = fuseBox;
                int la = f == null ? 0 : Math.max(ya - lag, f.y0());
                int le = f == null ? 0 : Math.min(ye - lag, f.y1());
                lambdas.add(la < le ? f.withY(la, le) : null);
            }
        }
        this.rebuildBlocks = blocks.toArray(new Box[0]);
        this.lambdaBlocks = lambdas.toArray(new Box[0]);
        adj = new AcousticAdjointArrays(view, storage, 0);
        tapes = new AcousticTapeRecorder(g, fwd, backend, storage, adj.unxt, adj.ucur);
        scratch = new float[backend.threads()][kernels.adjointScratch(g.geo)];
    }

    long bytes() {
        return adj.bytes() + 4L * scratch.length * scratch[0].length + tapes.bytes();
    }

    /** The recorder of the tapes this adjoint runs from. */
    AcousticTapeRecorder recorder() {
        return tapes;
    }

    /**
     * Runs the adjoint of one shot's forward run for {@code residual} ({@code (nrec, nt)} flat, i.e. transposed),
     * writes dJ/dwavelet per source into {@code wbar} ({@code (nsrc, nt)}) and returns dJ/d(v²dt²) on the
     * computational grid: an array of this adjoint's, valid until its next run.
     *
     * <p>With the CPU kernels, boundary saving runs the rebuild of the forward level, the Laplacian term, {@code w}
     * and the imaging condition in one fused pass over the interior box ({@link AcousticKernelSet#rebuildScale}); the
     * gradient at source cells, whose term also holds the wavelet, is then redone from the value it had before the
     * pass, so every cell sees exactly the operations of the portable sequence. The same pass also forms λ^n (the
     * interior kernel) h rows behind the rebuild, on the cells whose stencil lies in the interior box, reading back
     * the w it has just written while it is still in cache; the λ pass does the rest.
     */
    float[] backward(AcousticTape tape, float[] residualT, int nt, float[] wbar) {
        int nsrc = tape.srcIdx.length;
        int nrec = tape.recIdx.length;
        float[] lam = adj.qb;
        float[] qprev = adj.qp;
        // (d needs no clearing: outside the cells each step writes before reading it, it is zero; see the end)
        backend.parallelFor(0, lam.length, (a, b) -> {
            Arrays.fill(adj.qb, a, b, 0f);
            Arrays.fill(adj.qp, a, b, 0f);
            Arrays.fill(adj.grad, a, b, 0f);
        });
        clearAuxiliaries();
        float[] cur = adj.ucur;
        float[] nxt = adj.unxt;
        boolean bs = storage == Storage.BOUNDARY_SAVING;
        if (bs && !tape.transientBuffers) {
            System.arraycopy(tape.last, 0, nxt, 0, nxt.length);
            System.arraycopy(tape.beforeLast, 0, cur, 0, cur.length);
        } else if (bs) {
            if (tape.last != nxt || tape.beforeLast != cur) {
                throw new IllegalStateException("a transient tape runs its adjoint once, right after its forward run");
            }
            tape.last = null; // consumed: its levels are overwritten from here on
            tape.beforeLast = null;
        }
        boolean fused = bs && kernels.vector();
        Arrays.fill(fusedRows, 0);
        // fused path: the source cells inside the interior box (first occurrence of each cell) and a place to keep
        // their gradient before the fused pass
        int[] inSrc = fused ? interiorSources(tape.srcIdx) : new int[0];
        float[] gsave = new float[inSrc.length];
        boolean fs = g.spec.freeSurface();
        float[] wsamp = new float[nsrc];
        for (int n = nt - 1; n >= 0; n--) {
            sQ = lam;
            sOut = qprev;
            sCur = cur;
            sNxt = nxt;
            // q̄^n = Mᵀ λ^{n+1}
            if (fs) {
                backend.parallelFor(0, g.ny, mirrorAdjPass);
            }
            if (fused) {
                // d at the source cells: the Laplacian term (inside the interior box) plus the wavelet
                for (int i : tape.srcIdx) {
                    adj.d[i] = 0f;
                }
                for (int i : inSrc) {
                    laplacianCell(cur, adj.d, i);
                }
                Sources.add(adj.d, tape.srcIdx, tape.wavelet, nsrc, nt, n);
                for (int s = 0; s < inSrc.length; s++) {
                    gsave[s] = adj.grad[inSrc[s]];
                }
                if (n > 0) {
                    Sources.uninject(nxt, fwd.v2, tape.srcIdx, tape.wavelet, nsrc, nt, n);
                }
                sD = adj.d;
                sRev = n > 0 ? 1 : 0;
                backend.parallelFor(0, g.nz, rebuildPass);
                for (int s = 0; s < inSrc.length; s++) {
                    int i = inSrc[s];
                    adj.grad[i] = gsave[s] + lam[i] * adj.d[i];
                }
                if (n > 0) {
                    rebuilt(tape, n, nxt, fs);
                }
            } else {
                // d^n: the forward step's Laplacian-plus-source term
                float[] dn;
                if (!bs) {
                    dn = tape.terms[n];
                } else {
                    // d is written in the interior box only; outside it (the PML pads) it stays 0 (no gradient
                    // there) but for the source term added below, which is cleared here
                    for (int i : tape.srcIdx) {
                        adj.d[i] = 0f;
                    }
                    tapes.term(cur, adj.d, inner);
                    if (n > 0) {
                        Sources.uninject(nxt, fwd.v2, tape.srcIdx, tape.wavelet, nsrc, nt, n);
                        backend.parallelFor(0, g.nz, reversePass);
                        rebuilt(tape, n, nxt, fs);
                    }
                    Sources.add(adj.d, tape.srcIdx, tape.wavelet, nsrc, nt, n);
                    dn = adj.d;
                }
                sD = dn;
                backend.parallelFor(0, g.nz, scalePass);
            }
            if (halo != null) {
                halo.exchange(adj.w);
            }
            Sources.sample(adj.w, tape.srcIdx, wsamp, nsrc, 0);
            for (int s = 0; s < nsrc; s++) {
                wbar[s * nt + n] = wsamp[s];
            }
            // (the zeta recursion ran in the pass that wrote w: it reads w at its own cell only)
            if (!band.isEmpty()) {
                backend.parallelFor(0, g.nz, psiPass);
            }
            // λ^n into qprev (which held q̄^{n+1}): interior cells and cells in or next to a band, disjoint
            backend.parallelFor(0, g.nz, lambdaPass);
            if (fs) {
                backend.parallelFor(0, g.ny, ghostPass);
            }
            Sources.add(qprev, tape.recIdx, residualT, nrec, nt, n);
            float[] t = lam;
            lam = qprev;
            qprev = t;
            if (bs) {
                t = cur;
                cur = nxt;
                nxt = t;
            }
        }
        // d is zero outside the interior box but at source cells: clear them for the next run's sources
        for (int i : tape.srcIdx) {
            adj.d[i] = 0f;
        }
        sQ = null;
        sOut = null;
        sCur = null;
        sNxt = null;
        sD = null;
        return adj.grad;
    }

    /**
     * The homogeneous step as the stages of {@link StepStages} (for the conformance kit): the update (CPML auxiliaries,
     * leapfrog; the new level becomes the current one) and, with a free surface, the mirror of the new level. The
     * state: the previous level on the computational cells, the current one there and on the ghost rows above a free
     * surface (which the update reads and the mirror writes), then per axis the CPML auxiliaries psi and zeta on that
     * axis's band cells; levels of magnitude 1, psi 1/dh, zeta 1/dh². The update's transpose is this adjoint's pass
     * sequence of a backward step ({@link #backward}: scale, zeta, psi, λ, ghost rows), whose variables are the plain
     * adjoints but for the previous level: q̄ holds minus its adjoint. Valid until the solver's next run.
     */
    StepStages stepStages() {
        float[] cur = fwd.u;
        float[] prev = fwd.un;
        boolean fs = g.spec.freeSurface();
        int top = fs ? -g.h : 0;
        int[] cells = entries(0);
        StateVector.Builder b = StateVector.builder()
                .part("previous level", prev, adj.qp, cells, 1, true)
                .part("current level", cur, adj.qb, fs ? entries(top) : cells, 1, false);
        double dh = g.spec.dh()[0];
        for (int axis = 0; axis < 3 && fwd.psi.length > 0; axis++) {
            if (g.ndim == 2 && axis == 1) {
                continue;
            }
            int[] band = g.auxCells(axis, 0);
            b.part("psi " + axis, fwd.psi, adj.psib, band, 1 / dh, false);
            b.part("zeta " + axis, fwd.zeta, adj.zetab, band, 1 / (dh * dh), false);
        }
        List<String> names = fs ? List.of("update", "free surface") : List.of("update");
        return StepStages.of(names, b.build(), stage -> {
            if (stage == 0) {
                fwd.update();
                swapContents(cur, prev);
            } else {
                fwd.mirror(cur);
            }
        }, stage -> {
            sQ = adj.qb;
            sOut = adj.qp;
            if (stage == 0) {
                sD = adj.d;
                Arrays.fill(fusedRows, 0);
                backend.parallelFor(0, g.nz, scalePass);
                if (!band.isEmpty()) {
                    backend.parallelFor(0, g.nz, psiPass);
                }
                backend.parallelFor(0, g.nz, lambdaPass);
                if (fs) {
                    backend.parallelFor(0, g.ny, ghostPass);
                }
                swapContents(adj.qb, adj.qp);
            } else {
                backend.parallelFor(0, g.ny, mirrorAdjPass);
            }
            sQ = null;
            sOut = null;
            sD = null;
        });
    }

    /** The flat indices of the computational cells from row {@code z0} (negative: ghost rows above the top) down. */
    private int[] entries(int z0) {
        int[] out = new int[(g.nz - z0) * g.ny * g.nx];
        int n = 0;
        for (int z = z0; z < g.nz; z++) {
            for (int y = 0; y < g.ny; y++) {
                for (int x = 0; x < g.nx; x++) {
                    out[n++] = g.compIndex(z, y, x);
                }
            }
        }
        return out;
    }

    private static void swapContents(float[] a, float[] b) {
        float[] t = a.clone();
        System.arraycopy(b, 0, a, 0, a.length);
        System.arraycopy(t, 0, b, 0, b.length);
    }

    /** Whether a backward run has written the PML auxiliaries (new arrays are zero). */
    private boolean auxUsed;

    /**
     * Zeroes cor, pb, psib and zetab, in parallel. The kernels write them only at band cells (per axis slot, the cells
     * of that axis's band) and nothing else does, so after a run only those need clearing; the rest (the cells beyond
     * the bands that the stencils read) is still +0.0f from the allocation.
     */
    private void clearAuxiliaries() {
        if (!auxUsed) {
            auxUsed = true;
            return;
        }
        backend.parallelFor(0, g.nz, (z0, z1) -> {
            for (float[] a : new float[][] {adj.cor, adj.pb, adj.psib, adj.zetab}) {
                g.clearBandCells(a, z0, z1);
            }
        });
    }

    /** Completes the rebuilt level u^{n−1} in {@code nxt}: the saved ring, the free-surface mirror, the halo. */
    private void rebuilt(AcousticTape tape, int n, float[] nxt, boolean fs) {
        tapes.unpackRing(nxt, tape.rings[n - 1]);
        if (fs) {
            backend.parallelFor(0, g.ny, mirrorPass);
        }
        if (halo != null) {
            halo.exchange(nxt);
        }
        if (rebuildListener != null) {
            rebuildListener.snapshot(0, n - 1, fwd.physicalCopy(nxt));
        }
    }

    /** The distinct cells of {@code srcIdx} that lie in the interior box, in first-occurrence order. */
    private int[] interiorSources(int[] srcIdx) {
        Box in = g.view().interiorBox();
        int[] out = new int[srcIdx.length];
        int n = 0;
        if (in != null) {
            for (int i : srcIdx) {
                int[] c = cell(i);
                boolean inside = in.contains(c[0], c[1], c[2]);
                boolean seen = false;
                for (int k = 0; k < n; k++) {
                    seen |= out[k] == i;
                }
                if (inside && !seen) {
                    out[n++] = i;
                }
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** Computational (z, y, x) of the flat index i. */
    private int[] cell(int i) {
        int r = i - g.geo[Layout.OFF0];
        int sz = g.geo[Layout.SZ];
        int z = Math.floorDiv(r, sz);
        r -= z * sz;
        if (g.ndim == 2) {
            return new int[] {z, 0, r};
        }
        int sy = g.geo[Layout.SY];
        int y = Math.floorDiv(r, sy);
        return new int[] {z, y, r - y * sy};
    }

    /** The Laplacian term of {@code u} at the single cell i (portable kernel on a one-cell box). */
    private void laplacianCell(float[] u, float[] out, int i) {
        int[] c = cell(i);
        portable.laplacian(u, fwd.psi, fwd.zeta, g.coef, g.geo, out, c[0], c[0] + 1,
                new Box(c[0], c[0] + 1, c[1], c[1] + 1, c[2], c[2] + 1));
    }

    private void reverseRows(int r0, int r1) {
        for (Box b : inner) {
            int z0 = Math.max(b.z0(), r0);
            int z1 = Math.min(b.z1(), r1);
            if (z0 < z1) {
                kernels.reverse(sCur, sNxt, fwd.v2, adj.d, g.geo, z0, z1, b);
            }
        }
    }

    /** scale over the whole grid, then the zeta recursion (which reads w at its own cell only) on the same rows. */
    private void scaleAllRows(int r0, int r1) {
        scaleRows(all, r0, r1);
        zetaRows(r0, r1);
    }

    /** Adjoint of the free-surface mirror on λ^{n+1} over rows y in [y0, y1). */
    private void mirrorAdjointRows(int y0, int y1) {
        kernels.mirrorTopAdjoint(sQ, g.geo, y0, y1, 0, g.nx);
    }

    /** Free-surface mirror of the rebuilt level over rows y in [y0, y1). */
    private void mirrorRows(int y0, int y1) {
        kernels.mirrorTop(sNxt, g.geo, y0, y1, 0, g.nx);
    }

    /** The free surface's ghost-row terms of λ^n over rows y in [y0, y1). */
    private void ghostRows(int y0, int y1) {
        kernels.ghostRows(sOut, adj.w, g.coef, g.geo, y0, y1, 0, g.nx);
    }

    private void scaleRows(List<Box> boxes, int r0, int r1) {
        float[] v2 = fwd.v2;
        for (Box b : boxes) {
            int z0 = Math.max(b.z0(), r0);
            int z1 = Math.min(b.z1(), r1);
            if (z0 < z1) {
                kernels.scale(sQ, v2, adj.w, adj.grad, sD, g.geo, z0, z1, b);
            }
        }
    }

    /**
     * Fused boundary-saving pass (Vector API kernels) over rows [r0, r1) of chunk {@code chunk}: rebuildScale row by
     * row on the interior box and, h rows behind, the interior λ kernel on the rows of {@link #fuseBox} whose stencil
     * rows this chunk has just written (so w is read back from cache, and only rows this thread wrote are read: the λ
     * of fuseBox rows within h of the chunk's ends is left to the λ pass); then scale on the band boxes and the zeta
     * recursion on the same rows. In 3-D the interior box is swept in blocks of y rows ({@link #rebuildBlocks}), each
     * over all z of the chunk, so that the 2h + 1 planes the stencils read stay in cache. Records the λ rows it formed
     * in {@link #fusedRows}.
     */
    private void rebuildRows(int chunk, int r0, int r1) {
        float[] v2 = fwd.v2;
        int h = g.h;
        int lo = 0;
        int hi = 0;
        Box b = inBox;
        if (b != null) {
            Box f = fuseBox;
            if (f != null) {
                lo = Math.max(f.z0(), r0 + h);
                hi = Math.max(lo, Math.min(f.z1(), r1 - h));
            }
            int z1 = Math.min(b.z1(), r1);
            for (int k = 0; k < rebuildBlocks.length; k++) {
                Box blk = rebuildBlocks[k];
                Box lam = lambdaBlocks[k];
                for (int z = Math.max(b.z0(), r0); z < z1; z++) {
                    kernels.rebuildScale(sCur, sNxt, v2, sQ, adj.w, adj.grad, g.coef, g.geo, sRev, z, z + 1, blk,
                            scratch[chunk]);
                    int zl = z - h;
                    if (zl >= lo && zl < hi && lam != null) {
                        kernels.adjointInterior(sOut, sQ, adj.w, g.coef, g.geo, zl, zl + 1, lam, scratch[chunk]);
                    }
                }
            }
        }
        fusedRows[2 * chunk] = lo;
        fusedRows[2 * chunk + 1] = hi;
        scaleRows(band, r0, r1);
        zetaRows(r0, r1);
    }

    /** The end of the fused λ row range that holds row z, or -1 when none does. */
    private int fusedEnd(int z) {
        for (int c = 0; c < fusedRows.length; c += 2) {
            if (z >= fusedRows[c] && z < fusedRows[c + 1]) {
                return fusedRows[c + 1];
            }
        }
        return -1;
    }

    /** The first row in (z, limit) where a fused λ row range starts, or limit. */
    private int nextFusedStart(int z, int limit) {
        int e = limit;
        for (int c = 0; c < fusedRows.length; c += 2) {
            if (fusedRows[c] > z && fusedRows[c] < fusedRows[c + 1]) {
                e = Math.min(e, fusedRows[c]);
            }
        }
        return e;
    }

    private void zetaRows(int r0, int r1) {
        float[] prof = fwd.prof;
        for (Box b : band) {
            int z0 = Math.max(b.z0(), r0);
            int z1 = Math.min(b.z1(), r1);
            if (z0 < z1) {
                kernels.pmlZeta(adj.w, adj.zetab, adj.cor, prof, g.geo, z0, z1, b);
            }
        }
    }

    private void psiRows(int chunk, int r0, int r1) {
        float[] prof = fwd.prof;
        for (Box b : band) {
            int z0 = Math.max(b.z0(), r0);
            int z1 = Math.min(b.z1(), r1);
            if (z0 < z1) {
                kernels.pmlPsi(adj.w, adj.cor, adj.psib, adj.pb, prof, g.coef, g.geo, z0, z1, b, scratch[chunk]);
            }
        }
    }

    /**
     * λ^n over rows [r0, r1): the interior adjoint on the stencil-clear box (less the cells the fused pass did), the
     * general one on the rest.
     */
    private void lambdaRows(int chunk, int r0, int r1) {
        float[] out = sOut;
        float[] q = sQ;
        Box b = clearInner;
        if (b != null) {
            int z1 = Math.min(b.z1(), r1);
            int z = Math.max(b.z0(), r0);
            while (z < z1) {
                int fe = fusedEnd(z);
                int e = fe >= 0 ? Math.min(fe, z1) : nextFusedStart(z, z1);
                // rows of a fused range: the fused pass formed λ on fuseBox; the rest of the stencil-clear box here
                for (Box c : fe >= 0 ? clearLessFuse : clearInnerList) {
                    int za = Math.max(c.z0(), z);
                    int zb = Math.min(c.z1(), e);
                    if (za < zb) {
                        kernels.adjointInterior(out, q, adj.w, g.coef, g.geo, za, zb, c, scratch[chunk]);
                    }
                }
                z = e;
            }
        }
        for (Box o : clearOuter) {
            int z0 = Math.max(o.z0(), r0);
            int z1 = Math.min(o.z1(), r1);
            if (z0 < z1) {
                kernels.adjointGeneral(out, q, adj.w, adj.cor, adj.pb, g.coef, g.geo, z0, z1, o, scratch[chunk]);
            }
        }
    }
}
