import java.nio.file.Files;
import java.nio.file.Path;
import sweep.core.Wavelets;
import sweep.io.Npy;
import sweep.models.DefaultModels;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;

/**
 * The inputs of the imaging example of docs/imaging.md, in imaging-example/: the built-in FWI model at 20 m
 * (vp_true.npy), a smooth background made from it (vp_background.npy: smoothed over 250 m below the water), 20 surface
 * shots and a receiver at every surface cell (sources.npy, receivers.npy), and the reflections the background lacks
 * (reflections.npy: the records of the true model minus those of the background). Run from the repository root after
 * ./sweep has built the project:
 * java -cp "target/sweep-java.jar:target/lib/*" --add-modules jdk.incubator.vector examples/Imaging2D.java
 */
public class Imaging2D {
    public static void main(String[] args) throws Exception {
        double dh = 20;
        int nz = 100;
        int nx = 300;
        int waterRows = 13;
        Path dir = Files.createDirectories(Path.of("imaging-example"));
        float[] vp = DefaultModels.fwi2d(dh);
        float[] background = DefaultModels.smooth(vp, nz, nx, 250 / dh, waterRows);
        int shots = 20;
        int[] src = new int[shots * 2];
        int[] rec = new int[shots * nx * 2];
        int[][][] s = new int[shots][][];
        int[][][] r = new int[shots][nx][];
        for (int b = 0; b < shots; b++) {
            s[b] = new int[][] {{7 + 15 * b, 1}};
            src[2 * b] = 7 + 15 * b;
            src[2 * b + 1] = 1;
            for (int x = 0; x < nx; x++) {
                r[b][x] = new int[] {x, 1};
                rec[(b * nx + x) * 2] = x;
                rec[(b * nx + x) * 2 + 1] = 1;
            }
        }
        PropSpec spec = PropSpec.builder(nz, nx).dh(dh).dt(1.9e-3).nt(1260).abcn(20).freeSurface(true).build();
        float[] w = Wavelets.ricker(8, spec.nt(), spec.dt());
        float[] reflections;
        try (Propagator p = new Propagator(spec)) {
            reflections = p.forward(w, s, r, vp).data();
            float[] direct = p.forward(w, s, r, background).data();
            for (int i = 0; i < reflections.length; i++) {
                reflections[i] -= direct[i];
            }
        }
        Npy.writeFloat32(dir.resolve("vp_true.npy"), vp, nz, nx);
        Npy.writeFloat32(dir.resolve("vp_background.npy"), background, nz, nx);
        Npy.writeInt32(dir.resolve("sources.npy"), src, shots, 1, 2);
        Npy.writeInt32(dir.resolve("receivers.npy"), rec, shots, nx, 2);
        Npy.writeFloat32(dir.resolve("reflections.npy"), reflections, shots, spec.nt(), nx, 1);
        System.out.println("wrote imaging-example/{vp_true,vp_background,sources,receivers,reflections}.npy");
    }
}
