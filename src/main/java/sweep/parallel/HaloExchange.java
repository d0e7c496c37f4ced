package sweep.parallel;

import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import sweep.kernels.Layout;
import sweep.kernels.Pack;
import sweep.prop.Grid;
import sweep.prop.HaloHook;

/**
 * Fills the halos of a tile's wavefields across the cut faces of the mesh: per exchange one batch of non-blocking
 * sends and receives over the {@code model} communicator (2-D: x faces; 3-D: x and y faces), halo width order/2,
 * strips spanning the tile's whole computational extent along the other axes (PML pads included), on direct
 * buffers allocated once. A star stencil needs no corners. Several components of one sub-step (the elastic velocities,
 * or stresses) travel together: {@link #exchange(float[], int)} packs the strips of every component into one buffer
 * per face, so each neighbour gets one message per exchange whatever the equation.
 *
 * <p>Collective: every exchange call ({@code exchange}, {@code exchangeWithCorners}, {@code begin}/{@code end},
 * {@code exchangePacked}) pairs with the same call on each neighbouring tile, so every tile of the group makes the same
 * calls in the same order; {@link #synchronize()} is a barrier over the group. The constructor posts nothing.
 */
public final class HaloExchange implements HaloHook {
    /** One cut face: the strip sent to the neighbour and the halo strip received from it. */
    private static final class Face {
        final int neighbour;
        final int sendTag;
        final int recvTag;
        final int[] sendBox;
        final int[] recvBox;
        /** Cells of one component's strip. */
        final int size;
        /** Whether the face is normal to x (else to y). */
        final boolean alongX;
        /** The strips of an exchange with corners: a y face's reach over the x halos that face a neighbour. */
        final int[] cornerSendBox;
        final int[] cornerRecvBox;
        final int cornerSize;
        /** Room for one component's strip (the larger kind) where its rows are too short to copy directly. */
        final float[] scratch;
        final FloatBuffer sendBuf;
        final FloatBuffer recvBuf;

        Face(int neighbour, int sendTag, int recvTag, int[] sendBox, int[] recvBox, boolean alongX, int xLo, int xHi,
             int components) {
            this.neighbour = neighbour;
            this.sendTag = sendTag;
            this.recvTag = recvTag;
            this.sendBox = sendBox;
            this.recvBox = recvBox;
            this.alongX = alongX;
            this.size = volume(sendBox);
            this.cornerSendBox = sendBox.clone();
            this.cornerRecvBox = recvBox.clone();
            if (!alongX) {
                cornerSendBox[4] = cornerRecvBox[4] = xLo;
                cornerSendBox[5] = cornerRecvBox[5] = xHi;
            }
            this.cornerSize = volume(cornerSendBox);
            int room = Math.multiplyExact(Math.max(size, cornerSize), components);
            int shortest = Math.min(sendBox[5] - sendBox[4], cornerSendBox[5] - cornerSendBox[4]);
            this.scratch = new float[shortest < DIRECT_ROW ? Math.max(size, cornerSize) : 0];
            this.sendBuf = MPI.newFloatBuffer(room);
            this.recvBuf = MPI.newFloatBuffer(room);
        }

        private static int volume(int[] b) {
            return (b[1] - b[0]) * (b[3] - b[2]) * (b[5] - b[4]);
        }
    }

    private final Intracomm comm;
    private final int[] geo;
    /** Per component c, {@code geo} with OFF0 moved to component c of a packed array (for {@link Pack}). */
    private final int[][] componentGeo;
    private final List<Face> faces = new ArrayList<>();
    private final Request[] requests;
    private long exchanges;
    /** Nanoseconds per phase ({@link #COPY}, {@link #MPI_POST}, {@link #WAIT}), summed over all exchanges. */
    private final long[] phaseNanos = new long[3];
    /** End of the last timed phase: {@link #lap} charges the time since then to a phase. */
    private long mark;
    private float[] pending;
    private final boolean[] cut = new boolean[6];

    /** Exchange of single fields for {@code grid}, this rank's tile of the mesh; {@code halfWidth} = order/2. */
    public HaloExchange(ModelParallelMesh mesh, Grid grid, int halfWidth) {
        this(mesh, grid, halfWidth, 1);
    }

    /**
     * Exchange for {@code grid}, this rank's tile of the mesh, of up to {@code maxComponents} components per exchange
     * (the equation's {@code maxExchangeComponents}); {@code halfWidth} = order/2.
     */
    public HaloExchange(ModelParallelMesh mesh, Grid grid, int halfWidth, int maxComponents) {
        if (maxComponents < 1) {
            throw new IllegalArgumentException("maxComponents must be >= 1, got " + maxComponents);
        }
        this.comm = mesh.model();
        this.geo = grid.geo();
        this.componentGeo = new int[maxComponents][];
        for (int c = 0; c < maxComponents; c++) {
            componentGeo[c] = geo.clone();
            componentGeo[c][Layout.OFF0] += c * geo[Layout.LEN];
        }
        MeshTopology t = mesh.topology();
        int h = halfWidth;
        int nz = grid.nz();
        int ny = grid.ny();
        int nx = grid.nx();
        MeshTopology.Axis[] axes = grid.ndim() == 3 ? new MeshTopology.Axis[] {MeshTopology.Axis.Y, MeshTopology.Axis.X}
                : new MeshTopology.Axis[] {MeshTopology.Axis.X};
        // the x range a y face covers in an exchange with corners: the x halos that face a neighbour, too
        int xLo = t.neighbourRank(MeshTopology.Axis.X, MeshTopology.Side.LOW).isPresent() ? -h : 0;
        int xHi = t.neighbourRank(MeshTopology.Axis.X, MeshTopology.Side.HIGH).isPresent() ? nx + h : nx;
        for (MeshTopology.Axis axis : axes) {
            for (MeshTopology.Side side : MeshTopology.Side.values()) {
                var nb = t.neighbourRank(axis, side);
                if (nb.isEmpty()) {
                    continue;
                }
                int n = axis == MeshTopology.Axis.X ? nx : ny;
                int lo = axis == MeshTopology.Axis.X ? 4 : 2;
                int[] send = {0, nz, 0, ny, 0, nx};
                int[] recv = send.clone();
                if (side == MeshTopology.Side.LOW) {
                    send[lo] = 0;
                    send[lo + 1] = h;
                    recv[lo] = -h;
                    recv[lo + 1] = 0;
                } else {
                    send[lo] = n - h;
                    send[lo + 1] = n;
                    recv[lo] = n;
                    recv[lo + 1] = n + h;
                }
                // tag = the receiving face: 2*axis + side, as seen by the receiver
                int a = axis.ordinal();
                int mine = 2 * a + side.ordinal();
                int theirs = 2 * a + (1 - side.ordinal());
                cut[(axis == MeshTopology.Axis.X ? 4 : 2) + side.ordinal()] = true;
                // the neighbour is in this shot group: its rank in the model communicator is its tile rank
                faces.add(new Face(nb.getAsInt() - t.groupRootRank(), theirs, mine, send, recv,
                        axis == MeshTopology.Axis.X, xLo, xHi, maxComponents));
            }
        }
        requests = new Request[2 * faces.size()];
    }

    /** Number of exchanges done so far. */
    public long exchanges() {
        return exchanges;
    }

    /** Wall-clock seconds spent in exchanges so far (pack and post, then wait and unpack). */
    public double seconds() {
        return (phaseNanos[COPY] + phaseNanos[MPI_POST] + phaseNanos[WAIT]) * 1e-9;
    }

    /** Phase: copying strips between the fields and the message buffers (pack and unpack). */
    public static final int COPY = 0;
    /** Phase: in the MPI calls that post the non-blocking receives and sends. */
    public static final int MPI_POST = 1;
    /**
     * Phase: blocked in {@code Request.waitAll} until the messages complete: the transfer itself plus any time a
     * neighbour has not sent yet (it is still computing).
     */
    public static final int WAIT = 2;

    /** Seconds spent so far in one phase of the exchanges ({@link #COPY}, {@link #MPI_POST} or {@link #WAIT}). */
    public double seconds(int phase) {
        return phaseNanos[phase] * 1e-9;
    }

    /** Charges the time since the last mark to {@code phase} and sets the mark to now. */
    private void lap(int phase) {
        long t = System.nanoTime();
        phaseNanos[phase] += t - mark;
        mark = t;
    }

    @Override
    public void exchange(float[] field) {
        begin(field);
        end();
    }

    /**
     * Exchanges the cut-face halos of {@code components} wavefield arrays stored one after the other in {@code packed}:
     * per face the strips of every component, packed one after the other, go in ONE message. One component costs what
     * {@link #exchange(float[])} costs.
     */
    @Override
    public void exchange(float[] packed, int components) {
        if (components == 1) {
            exchange(packed);
            return;
        }
        checkComponents(components);
        if (faces.isEmpty()) {
            return;
        }
        mark = System.nanoTime();
        transfer(faces, false, packed, components);
        exchanges++;
    }

    /**
     * As {@link #exchange(float[], int)}, and fills the corner halos too (cells beyond a cut along x and one along y,
     * which the diagonal neighbour owns): the x faces first, then the y faces with strips that reach over the x halos
     * just filled. Still one message per neighbour.
     */
    @Override
    public void exchangeWithCorners(float[] packed, int components) {
        checkComponents(components);
        if (faces.isEmpty()) {
            return;
        }
        mark = System.nanoTime();
        List<Face> x = new ArrayList<>();
        List<Face> y = new ArrayList<>();
        for (Face f : faces) {
            (f.alongX ? x : y).add(f);
        }
        lap(COPY);
        transfer(x, false, packed, components);
        transfer(y, true, packed, components);
        exchanges++;
    }

    private void checkComponents(int components) {
        if (components < 1 || components > componentGeo.length) {
            throw new IllegalArgumentException("a halo exchange of " + components + " components, but this exchange"
                    + " was built for at most " + componentGeo.length + ": build it with the equation's"
                    + " maxExchangeComponents");
        }
        if (pending != null) {
            throw new IllegalStateException("multi-component halo exchange while a field exchange is in flight");
        }
    }

    /**
     * One batch of messages, one per face of {@code set}: the strips of every component packed one after the other
     * (the corner strips when {@code corners}), sent, received and unpacked.
     */
    private void transfer(List<Face> set, boolean corners, float[] packed, int components) {
        if (set.isEmpty()) {
            return;
        }
        Request[] req = set.size() == faces.size() ? requests : new Request[2 * set.size()];
        try {
            int k = 0;
            for (Face f : set) {
                int n = (corners ? f.cornerSize : f.size) * components;
                req[k++] = comm.iRecv(f.recvBuf, n, MPI.FLOAT, f.neighbour, f.recvTag);
            }
            lap(MPI_POST);
            for (Face f : set) {
                int[] b = corners ? f.cornerSendBox : f.sendBox;
                int size = corners ? f.cornerSize : f.size;
                for (int c = 0; c < components; c++) {
                    toBuffer(packed, componentGeo[c], b, f.sendBuf, c * size, f.scratch);
                }
                lap(COPY);
                req[k++] = comm.iSend(f.sendBuf, size * components, MPI.FLOAT, f.neighbour, f.sendTag);
                lap(MPI_POST);
            }
            Request.waitAll(req);
            lap(WAIT);
        } catch (MPIException e) {
            throw new IllegalStateException("halo exchange failed: " + e.getMessage(), e);
        }
        for (Face f : set) {
            int[] b = corners ? f.cornerRecvBox : f.recvBox;
            int size = corners ? f.cornerSize : f.size;
            for (int c = 0; c < components; c++) {
                fromBuffer(packed, componentGeo[c], b, f.recvBuf, c * size, f.scratch);
            }
        }
        lap(COPY);
    }

    @Override
    public void begin(float[] field) {
        if (faces.isEmpty()) {
            return;
        }
        if (pending != null) {
            throw new IllegalStateException("halo exchange begun twice without end()");
        }
        mark = System.nanoTime();
        try {
            int k = 0;
            for (Face f : faces) {
                requests[k++] = comm.iRecv(f.recvBuf, f.size, MPI.FLOAT, f.neighbour, f.recvTag);
            }
            lap(MPI_POST);
            for (Face f : faces) {
                toBuffer(field, geo, f.sendBox, f.sendBuf, 0, f.scratch);
                lap(COPY);
                requests[k++] = comm.iSend(f.sendBuf, f.size, MPI.FLOAT, f.neighbour, f.sendTag);
                lap(MPI_POST);
            }
        } catch (MPIException e) {
            throw new IllegalStateException("halo exchange failed: " + e.getMessage(), e);
        }
        pending = field;
    }

    @Override
    public void end() {
        if (faces.isEmpty()) {
            return;
        }
        if (pending == null) {
            throw new IllegalStateException("halo exchange end() without begin()");
        }
        mark = System.nanoTime();
        try {
            Request.waitAll(requests);
        } catch (MPIException e) {
            throw new IllegalStateException("halo exchange failed: " + e.getMessage(), e);
        }
        lap(WAIT);
        for (Face f : faces) {
            fromBuffer(pending, geo, f.recvBox, f.recvBuf, 0, f.scratch);
        }
        lap(COPY);
        pending = null;
        exchanges++;
    }

    /**
     * Rows of a strip at least this long are copied between the field and the direct buffer one bulk call per row
     * (one memory copy, no second pass over the strip); shorter rows (x faces: order/2 cells per row) go through the
     * heap scratch and one bulk call, since a call per row of 4 cells costs about twice the scalar copy (from 8 cells
     * on the two break even).
     */
    static final int DIRECT_ROW = 16;

    /** Copies box {@code b} of {@code field} (layout {@code g}) into {@code buf} from {@code bufOff} on. */
    private static void toBuffer(float[] field, int[] g, int[] b, FloatBuffer buf, int bufOff, float[] scratch) {
        int nxb = b[5] - b[4];
        if (nxb < DIRECT_ROW) {
            int n = (b[1] - b[0]) * (b[3] - b[2]) * nxb;
            Pack.pack(field, scratch, 0, g, b[0], b[1], b[2], b[3], b[4], b[5]);
            buf.put(bufOff, scratch, 0, n);
            return;
        }
        int sz = g[Layout.SZ];
        int sy = g[Layout.SY];
        int q = bufOff;
        for (int z = b[0]; z < b[1]; z++) {
            int row = g[Layout.OFF0] + z * sz + b[4];
            for (int y = b[2]; y < b[3]; y++) {
                buf.put(q, field, row + y * sy, nxb);
                q += nxb;
            }
        }
    }

    /** Copies {@code buf} from {@code bufOff} on into box {@code b} of {@code field} (layout {@code g}). */
    private static void fromBuffer(float[] field, int[] g, int[] b, FloatBuffer buf, int bufOff, float[] scratch) {
        int nxb = b[5] - b[4];
        if (nxb < DIRECT_ROW) {
            int n = (b[1] - b[0]) * (b[3] - b[2]) * nxb;
            buf.get(bufOff, scratch, 0, n);
            Pack.unpack(field, scratch, 0, g, b[0], b[1], b[2], b[3], b[4], b[5]);
            return;
        }
        int sz = g[Layout.SZ];
        int sy = g[Layout.SY];
        int q = bufOff;
        for (int z = b[0]; z < b[1]; z++) {
            int row = g[Layout.OFF0] + z * sz + b[4];
            for (int y = b[2]; y < b[3]; y++) {
                buf.get(q, field, row + y * sy, nxb);
                q += nxb;
            }
        }
    }

    /** A barrier over the model communicator (collective); not an exchange (neither counted nor timed). */
    @Override
    public void synchronize() {
        try {
            comm.barrier();
        } catch (MPIException e) {
            throw new IllegalStateException("halo barrier failed: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean[] cutSides() {
        return cut.clone();
    }

    @Override
    public int[][] sendBoxes() {
        int[][] b = new int[faces.size()][];
        for (int k = 0; k < b.length; k++) {
            b[k] = faces.get(k).sendBox.clone();
        }
        return b;
    }

    @Override
    public int[][] recvBoxes() {
        int[][] b = new int[faces.size()][];
        for (int k = 0; k < b.length; k++) {
            b[k] = faces.get(k).recvBox.clone();
        }
        return b;
    }

    @Override
    public void exchangePacked(float[] send, float[] recv) {
        if (faces.isEmpty()) {
            return;
        }
        if (pending != null) {
            throw new IllegalStateException("packed halo exchange while a field exchange is in flight");
        }
        mark = System.nanoTime();
        try {
            int k = 0;
            for (Face f : faces) {
                requests[k++] = comm.iRecv(f.recvBuf, f.size, MPI.FLOAT, f.neighbour, f.recvTag);
            }
            lap(MPI_POST);
            int off = 0;
            for (Face f : faces) {
                f.sendBuf.clear();
                f.sendBuf.put(send, off, f.size);
                off += f.size;
                lap(COPY);
                requests[k++] = comm.iSend(f.sendBuf, f.size, MPI.FLOAT, f.neighbour, f.sendTag);
                lap(MPI_POST);
            }
            Request.waitAll(requests);
            lap(WAIT);
        } catch (MPIException e) {
            throw new IllegalStateException("halo exchange failed: " + e.getMessage(), e);
        }
        int off = 0;
        for (Face f : faces) {
            f.recvBuf.clear();
            f.recvBuf.get(recv, off, f.size);
            off += f.size;
        }
        lap(COPY);
        exchanges++;
    }
}
