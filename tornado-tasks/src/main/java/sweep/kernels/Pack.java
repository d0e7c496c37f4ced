package sweep.kernels;

/**
 * Copies a box of a wavefield array to or from a compact buffer (x fastest, then y, then z), for boundary-ring
 * saving and halo strips. The box is given in computational-grid coordinates and may reach into the halo.
 */
public final class Pack {
    private Pack() {
    }

    /** Copies box [z0,z1)×[y0,y1)×[x0,x1) of {@code f} into {@code buf} starting at {@code bufOff}. */
    public static void pack(float[] f, float[] buf, int bufOff, int[] geo, int z0, int z1, int y0, int y1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int nyb = y1 - y0;
        int nxb = x1 - x0;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    buf[bufOff + ((z - z0) * nyb + (y - y0)) * nxb + (x - x0)] = f[off + z * sz + y * sy + x];
                }
            }
        }
    }

    /** Copies {@code buf} starting at {@code bufOff} into box [z0,z1)×[y0,y1)×[x0,x1) of {@code f}. */
    public static void unpack(float[] f, float[] buf, int bufOff, int[] geo, int z0, int z1, int y0, int y1, int x0, int x1) {
        int sz = geo[Layout.SZ];
        int sy = geo[Layout.SY];
        int off = geo[Layout.OFF0];
        int nyb = y1 - y0;
        int nxb = x1 - x0;
        for (@Parallel int iz = 0; iz < z1 - z0; iz++) {
            int z = z0 + iz;
            for (@Parallel int iy = 0; iy < y1 - y0; iy++) {
                int y = y0 + iy;
                for (@Parallel int ix = 0; ix < x1 - x0; ix++) {
                    int x = x0 + ix;
                    f[off + z * sz + y * sy + x] = buf[bufOff + ((z - z0) * nyb + (y - y0)) * nxb + (x - x0)];
                }
            }
        }
    }
}
