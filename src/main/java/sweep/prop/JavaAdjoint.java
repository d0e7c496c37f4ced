package sweep.prop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sweep.backend.JavaBackend;
import sweep.kernels.Acoustic2D;
import sweep.kernels.Acoustic3D;
import sweep.kernels.Adjoint2D;
import sweep.kernels.Adjoint3D;
import sweep.kernels.Pack;
import sweep.kernels.Sources;

/**
 * The gradient machinery of one grid on the Java backend: the tape a gradient-capable forward run records (FULL or
 * BOUNDARY_SAVING, see {@link Storage}) and the backward (adjoint) time loop that turns a residual into dJ/dv²dt² on
 * the computational grid. Allocated only when a gradient is first asked for.
 */
final class JavaAdjoint {
    /** What one shot's forward run left for its adjoint run. */
    static final class Tape {
        final int[] srcIdx;
        final int[] recIdx;
        final float[] wavelet;
        /** FULL: the Laplacian-plus-source term of every step. */
        float[][] terms;
        /** BOUNDARY_SAVING: ring of every level 0..nt-1, and the last two levels. */
        float[][] rings;
        float[] last;
        float[] beforeLast;

        Tape(int[] srcIdx, int[] recIdx, float[] wavelet) {
            this.srcIdx = srcIdx;
            this.recIdx = recIdx;
            this.wavelet = wavelet;
        }

        long bytes() {
            long n = 0;
            if (terms != null) {
                for (float[] t : terms) {
                    n += t.length;
                }
            }
            if (rings != null) {
                for (float[] r : rings) {
                    n += r.length;
                }
                n += last.length + beforeLast.length;
            }
            return 4 * n;
        }
    }

    /** Body of a kernel call on the part [z0, z1) of a box. */
    @FunctionalInterface
    interface BoxBody {
        void run(int[] b, int z0, int z1);
    }

    private final Grid g;
    private final JavaStepper fwd;
    private final JavaBackend backend;
    private final Storage storage;
    private final HaloHook halo;
    private final List<int[]> band;
    private final List<int[]> all;
    private final int[] clearInner;
    private final List<int[]> clearOuter;
    private final List<int[]> ring;
    private final int ringSize;
    // adjoint fields
    private final float[] qb;
    private final float[] qp;
    private final float[] w;
    private final float[] grad;
    private final float[] d;
    private final float[] cor;
    private final float[] pb;
    private final float[] psib;
    private final float[] zetab;
    /** Test hook: receives each wavefield level the boundary-saving run rebuilds (physical region). */
    WavefieldListener rebuildListener;
    // boundary-saving reconstruction fields
    private final float[] ucur;
    private final float[] unxt;

    JavaAdjoint(Grid g, JavaStepper fwd, JavaBackend backend, Storage storage, HaloHook halo) {
        this.g = g;
        this.halo = halo;
        this.fwd = fwd;
        this.backend = backend;
        this.storage = storage;
        this.band = g.pmlBoxes();
        this.all = List.of(g.allBox());
        int[] lim = g.stencilClearLimits();
        this.clearInner = Grid.innerBox(lim[0], lim[1], lim[2], lim[3], lim[4], lim[5]);
        this.clearOuter = g.outerBoxes(lim[0], lim[1], lim[2], lim[3], lim[4], lim[5]);
        this.ring = g.ringBoxes();
        long rs = 0;
        for (int[] b : ring) {
            rs += Grid.volume(b);
        }
        this.ringSize = (int) rs;
        int len = g.length();
        int pml = g.hasPml() ? g.ndim * len : 0;
        qb = new float[len];
        qp = new float[len];
        w = new float[len];
        grad = new float[len];
        d = new float[len];
        cor = new float[pml];
        pb = new float[pml];
        psib = new float[pml];
        zetab = new float[pml];
        boolean bs = storage == Storage.BOUNDARY_SAVING;
        ucur = bs ? new float[len] : new float[0];
        unxt = bs ? new float[len] : new float[0];
    }

    long bytes() {
        return 4L * (qb.length + qp.length + w.length + grad.length + d.length + cor.length + pb.length + psib.length
                + zetab.length + ucur.length + unxt.length);
    }

    private void run(List<int[]> boxes, BoxBody body) {
        backend.parallelFor(0, g.nz, (r0, r1) -> {
            for (int[] b : boxes) {
                int z0 = Math.max(b[0], r0);
                int z1 = Math.min(b[1], r1);
                if (z0 < z1) {
                    body.run(b, z0, z1);
                }
            }
        });
    }

    private void runBox(int[] box, BoxBody body) {
        if (box != null) {
            run(List.of(box), body);
        }
    }

    /** Called after forward step n (the stepper's {@code un} now holds u^n): records what the adjoint needs. */
    void record(Tape tape, int n, int nt) {
        if (storage == Storage.FULL) {
            if (tape.terms == null) {
                tape.terms = new float[nt][];
            }
            float[] t = new float[g.length()];
            laplacian(fwd.un, fwd.psi, fwd.zeta, t, all);
            Sources.add(t, tape.srcIdx, tape.wavelet, tape.srcIdx.length, nt, n);
            tape.terms[n] = t;
        } else {
            if (tape.rings == null) {
                tape.rings = new float[nt][];
            }
            tape.rings[n] = packRing(fwd.un);
            if (n == nt - 1) {
                tape.last = fwd.u.clone();
                tape.beforeLast = fwd.un.clone();
            }
        }
    }

    private float[] packRing(float[] f) {
        float[] buf = new float[ringSize];
        int off = 0;
        for (int[] b : ring) {
            Pack.pack(f, buf, off, g.geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            off += (int) Grid.volume(b);
        }
        return buf;
    }

    private void unpackRing(float[] f, float[] buf) {
        int off = 0;
        for (int[] b : ring) {
            Pack.unpack(f, buf, off, g.geo, b[0], b[1], b[2], b[3], b[4], b[5]);
            off += (int) Grid.volume(b);
        }
    }

    private void laplacian(float[] u, float[] psi, float[] zeta, float[] out, List<int[]> boxes) {
        run(boxes, (b, z0, z1) -> {
            if (g.ndim == 2) {
                Acoustic2D.laplacian(u, psi, zeta, g.coef, g.geo, out, z0, z1, b[4], b[5]);
            } else {
                Acoustic3D.laplacian(u, psi, zeta, g.coef, g.geo, out, z0, z1, b[2], b[3], b[4], b[5]);
            }
        });
    }

    /**
     * Runs the adjoint of one shot's forward run for {@code residual} ({@code (nrec, nt)} flat, i.e. transposed), adds
     * dJ/d(v²dt²) into {@code gradOut} (computational grid) and writes dJ/dwavelet per source into {@code wbar}
     * ({@code (nsrc, nt)}).
     */
    void backward(Tape tape, float[] residualT, int nt, float[] gradOut, float[] wbar) {
        float[] v2 = fwd.v2;
        float[] prof = fwd.prof;
        int nsrc = tape.srcIdx.length;
        int nrec = tape.recIdx.length;
        float[] lam = qb;
        float[] qprev = qp;
        Arrays.fill(lam, 0f);
        Arrays.fill(qprev, 0f);
        Arrays.fill(grad, 0f);
        Arrays.fill(d, 0f);
        Arrays.fill(cor, 0f);
        Arrays.fill(pb, 0f);
        Arrays.fill(psib, 0f);
        Arrays.fill(zetab, 0f);
        float[] cur = ucur;
        float[] nxt = unxt;
        if (storage == Storage.BOUNDARY_SAVING) {
            System.arraycopy(tape.last, 0, nxt, 0, nxt.length);
            System.arraycopy(tape.beforeLast, 0, cur, 0, cur.length);
        }
        boolean fs = g.spec.freeSurface();
        float[] wsamp = new float[nsrc];
        for (int n = nt - 1; n >= 0; n--) {
            // d^n: the forward step's Laplacian-plus-source term
            float[] dn;
            if (storage == Storage.FULL) {
                dn = tape.terms[n];
            } else {
                // d is written in the interior box only; outside it (the PML pads) it stays 0 (no gradient there)
                // but for the source term added below, which is cleared here
                for (int i : tape.srcIdx) {
                    d[i] = 0f;
                }
                laplacian(cur, fwd.psi, fwd.zeta, d, interiorOnly());
                if (n > 0) {
                    Sources.uninject(nxt, v2, tape.srcIdx, tape.wavelet, nsrc, nt, n);
                    final float[] c = cur;
                    final float[] x = nxt;
                    runBox(g.interiorBox(), (b, z0, z1) -> reverse(c, x, v2, z0, z1, b));
                    unpackRing(nxt, n - 1 >= 0 ? tape.rings[n - 1] : null);
                    if (fs) {
                        mirror(nxt);
                    }
                    if (halo != null) {
                        halo.exchange(nxt);
                    }
                    if (rebuildListener != null) {
                        rebuildListener.snapshot(0, n - 1, fwd.physicalCopy(nxt));
                    }
                }
                Sources.add(d, tape.srcIdx, tape.wavelet, nsrc, nt, n);
                dn = d;
            }
            // q̄^n = Mᵀ λ^{n+1}
            final float[] q = lam;
            if (fs) {
                if (g.ndim == 2) {
                    Adjoint2D.mirrorTopAdjoint(q, g.geo, 0, g.nx);
                } else {
                    backend.parallelFor(0, g.ny, (y0, y1) -> Adjoint3D.mirrorTopAdjoint(q, g.geo, y0, y1, 0, g.nx));
                }
            }
            final float[] dd = dn;
            run(all, (b, z0, z1) -> {
                if (g.ndim == 2) {
                    Adjoint2D.scale(q, v2, w, grad, dd, g.geo, z0, z1, b[4], b[5]);
                } else {
                    Adjoint3D.scale(q, v2, w, grad, dd, g.geo, z0, z1, b[2], b[3], b[4], b[5]);
                }
            });
            if (halo != null) {
                halo.exchange(w);
            }
            Sources.sample(w, tape.srcIdx, wsamp, nsrc, 0);
            for (int s = 0; s < nsrc; s++) {
                wbar[s * nt + n] = wsamp[s];
            }
            if (!band.isEmpty()) {
                run(band, (b, z0, z1) -> {
                    if (g.ndim == 2) {
                        Adjoint2D.pmlZeta(w, zetab, cor, prof, g.geo, z0, z1, b[4], b[5]);
                    } else {
                        Adjoint3D.pmlZeta(w, zetab, cor, prof, g.geo, z0, z1, b[2], b[3], b[4], b[5]);
                    }
                });
                run(band, (b, z0, z1) -> {
                    if (g.ndim == 2) {
                        Adjoint2D.pmlPsi(w, cor, psib, pb, prof, g.coef, g.geo, z0, z1, b[4], b[5]);
                    } else {
                        Adjoint3D.pmlPsi(w, cor, psib, pb, prof, g.coef, g.geo, z0, z1, b[2], b[3], b[4], b[5]);
                    }
                });
            }
            // λ^n into qprev (which held q̄^{n+1})
            final float[] out = qprev;
            runBox(clearInner, (b, z0, z1) -> {
                if (g.ndim == 2) {
                    Adjoint2D.interior(out, q, w, g.coef, g.geo, z0, z1, b[4], b[5]);
                } else {
                    Adjoint3D.interior(out, q, w, g.coef, g.geo, z0, z1, b[2], b[3], b[4], b[5]);
                }
            });
            if (!clearOuter.isEmpty()) {
                run(clearOuter, (b, z0, z1) -> {
                    if (g.ndim == 2) {
                        Adjoint2D.general(out, q, w, cor, pb, g.coef, g.geo, z0, z1, b[4], b[5]);
                    } else {
                        Adjoint3D.general(out, q, w, cor, pb, g.coef, g.geo, z0, z1, b[2], b[3], b[4], b[5]);
                    }
                });
            }
            if (fs) {
                if (g.ndim == 2) {
                    Adjoint2D.ghostRows(out, w, g.coef, g.geo, 0, g.nx);
                } else {
                    backend.parallelFor(0, g.ny, (y0, y1) -> Adjoint3D.ghostRows(out, w, g.coef, g.geo, y0, y1, 0, g.nx));
                }
            }
            Sources.add(out, tape.recIdx, residualT, nrec, nt, n);
            lam = out;
            qprev = q;
            if (storage == Storage.BOUNDARY_SAVING) {
                float[] t = cur;
                cur = nxt;
                nxt = t;
            }
        }
        for (int i = 0; i < grad.length; i++) {
            gradOut[i] += grad[i];
        }
    }

    private List<int[]> interiorOnly() {
        int[] in = g.interiorBox();
        return in == null ? List.of() : List.of(in);
    }

    private void reverse(float[] c, float[] x, float[] v2, int z0, int z1, int[] b) {
        if (g.ndim == 2) {
            Adjoint2D.reverse(c, x, v2, d, g.geo, z0, z1, b[4], b[5]);
        } else {
            Adjoint3D.reverse(c, x, v2, d, g.geo, z0, z1, b[2], b[3], b[4], b[5]);
        }
    }

    private void mirror(float[] f) {
        if (g.ndim == 2) {
            Acoustic2D.mirrorTop(f, g.geo, 0, g.nx);
        } else {
            backend.parallelFor(0, g.ny, (y0, y1) -> Acoustic3D.mirrorTop(f, g.geo, y0, y1, 0, g.nx));
        }
    }

    /** Ring boxes, for tests and memory reports. */
    List<int[]> ring() {
        return new ArrayList<>(ring);
    }
}
