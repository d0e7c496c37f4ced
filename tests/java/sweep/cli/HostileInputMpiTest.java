package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sweep.io.Npy;
import sweep.parallel.MpiRunner;

/**
 * Hostile input under a real {@code mpirun -np 2}: a receiver in the column that pads the model to the mesh is refused
 * as on one rank (it ran with exit code 0), the error of a malformed option and of a refused input is printed once (not
 * once per rank, and without a usage dump), thin tiles are reported along x, not "axis 1", and a bad value in one
 * rank's tile of an FWI's gradient mask is refused with its global position; a setting's warning (a visco-acoustic
 * reference frequency outside its band) is printed once.
 */
class HostileInputMpiTest {
    @TempDir
    Path dir;

    private List<String> forward(int nx, int recX) {
        float[] v = new float[40 * nx];
        Arrays.fill(v, 2000f);
        Npy.writeFloat32(dir.resolve("vp.npy"), v, 40, nx);
        Npy.writeInt32(dir.resolve("src.npy"), new int[] {nx / 2, 2}, 1, 1, 2);
        Npy.writeInt32(dir.resolve("rec.npy"), new int[] {recX, 3, Math.min(10, nx - 1), 3}, 1, 2, 2);
        return new ArrayList<>(List.of("forward", "--vp", dir.resolve("vp.npy").toString(), "--dh", "10", "--dt",
                "0.001", "--nt", "30", "--abcn", "10", "--sources", dir.resolve("src.npy").toString(), "--receivers",
                dir.resolve("rec.npy").toString(), "--ricker", "10", "--out", dir.resolve("r.npy").toString(),
                "--threads", "1"));
    }

    private static List<String> errorLines(MpiRunner.Result r) {
        return r.stderr().lines().filter(l -> l.contains(": error: ")).toList();
    }

    private static MpiRunner.Result run(List<String> args) throws Exception {
        return MpiRunner.run(2, Main.class, args.toArray(new String[0]));
    }

    @Test
    void errorsUnderMpirunArePrintedOnceAndPadCellsAreRefused() throws Exception {
        // first, in the same launch, a visco-acoustic run whose reference frequency lies outside its band of constant
        // Q: it runs, and its warning is printed once, not once per rank
        List<String> visco = forward(60, 50);
        for (String p : List.of("rho", "q")) {
            float[] a = new float[40 * 60];
            Arrays.fill(a, p.equals("rho") ? 1800f : 40f);
            Npy.writeFloat32(dir.resolve(p + ".npy"), a, 40, 60);
            visco.addAll(List.of("--" + p, dir.resolve(p + ".npy").toString()));
        }
        visco.set(visco.indexOf("--out") + 1, dir.resolve("visco.npy").toString());
        for (String[] f : new String[][] {{"--vp", "vp"}, {"--sources", "src"}, {"--receivers", "rec"}}) {
            Path own = dir.resolve(f[1] + "-visco.npy");
            Files.copy(dir.resolve(f[1] + ".npy"), own);
            visco.set(visco.indexOf(f[0]) + 1, own.toString());
        }
        visco.addAll(List.of("--equation", "visco-acoustic", "--f-ref", "1", "--px", "2"));
        // nx = 61 on px = 2 is padded to 62: a receiver at x = 61 lies in the pad, outside the user's model
        List<String> pad = forward(61, 61);
        pad.addAll(List.of("--px", "2"));
        MpiRunner.Result r = MpiRunner.run(2, CliBatchMain.class, CliBatchMain.join(List.of(
                visco.toArray(new String[0]), pad.toArray(new String[0]))));
        assertTrue(r.stdout().contains("EXIT 0 0") && Files.exists(dir.resolve("visco.npy")), r.describe());
        assertEquals(1, r.stderr().lines().filter(l -> l.contains("sweep forward: warning: f_ref 1 Hz lies below"
                + " q_band")).count(), "one warning line, not one per rank: " + r.describe());
        assertEquals(2, r.exitCode(), r.describe());
        List<String> errors = errorLines(r);
        assertEquals(1, errors.size(), "one error line, not one per rank: " + r.describe());
        assertTrue(errors.get(0).contains("--receivers") && errors.get(0).contains("lies outside the model"),
                r.describe());
        assertFalse(Files.exists(dir.resolve("r.npy")), "nothing written");

        List<String> malformed = forward(61, 60);
        malformed.addAll(List.of("--px", "2", "--nt", "0x10"));
        MpiRunner.Result m = run(malformed);
        assertEquals(2, m.exitCode(), m.describe());
        assertEquals(1, errorLines(m).size(), "one error line, not one per rank: " + m.describe());
        assertTrue(errorLines(m).get(0).contains("'0x10'") && errorLines(m).get(0).contains("--help"),
                m.describe());
        assertFalse(m.stderr().contains("Usage:") || m.stdout().contains("Usage:"), "no usage dump: " + m.describe());

        // tiles of 4 cells along x at order 16 (halo 8): thinner than the halo, named along x
        List<String> thin = forward(8, 5);
        thin.set(thin.indexOf("--abcn") + 1, "0");
        thin.addAll(List.of("--px", "2", "--order", "16"));
        MpiRunner.Result t = run(thin);
        assertEquals(2, t.exitCode(), t.describe());
        assertEquals(1, errorLines(t).size(), t.describe());
        assertTrue(errorLines(t).get(0).contains("along x (px = 2)"), t.describe());

        // an FWI whose gradient mask holds a bad value in rank 1's tile (each rank reads only its tile of it): refused
        // with the value's global position, before an output folder is made
        float[] v = new float[40 * 80];
        Arrays.fill(v, 2000f);
        Npy.writeFloat32(dir.resolve("vp.npy"), v, 40, 80);
        float[] mask = new float[40 * 80];
        Arrays.fill(mask, 1f);
        mask[30 * 80 + 70] = 1.5f;
        Npy.writeFloat32(dir.resolve("mask.npy"), mask, 40, 80);
        Path job = dir.resolve("job.json");
        Files.writeString(job, "{\"vp_true\": \"vp.npy\", \"dh\": 10, \"dt\": 0.001, \"nt\": 100, \"abcn\": 10,"
                + " \"shots\": 2, \"threads\": 1, \"iterations\": 1, \"gradient_mask\": \"mask.npy\", \"out\": \""
                + dir.resolve("o") + "\"}");
        MpiRunner.Result f = run(List.of("fwi", "--job", job.toString(), "--px", "2"));
        assertEquals(2, f.exitCode(), f.describe());
        assertEquals(1, errorLines(f).size(), f.describe());
        assertTrue(errorLines(f).get(0).contains("key 'gradient_mask'") && errorLines(f).get(0).contains("1.5 at (z, x)"
                + " = (30, 70) lies outside [0, 1]"), f.describe());
        assertFalse(Files.exists(dir.resolve("o")), "no output folder");
    }
}
