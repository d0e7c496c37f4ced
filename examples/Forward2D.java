import java.nio.file.Path;
import sweep.core.Wavelets;
import sweep.io.Npy;
import sweep.io.Png;
import sweep.models.DefaultModels;
import sweep.prop.PropSpec;
import sweep.prop.Propagator;
import sweep.prop.Record;

/**
 * 2-D forward modelling of one surface shot through the built-in FWI model; writes forward2d-record.npy and a gather
 * picture. Run from the repository root after ./sweep has built the project:
 * java -cp "target/sweep-java.jar:target/lib/*" --add-modules jdk.incubator.vector examples/Forward2D.java
 */
public class Forward2D {
    public static void main(String[] args) {
        double dh = 20;
        int nz = 100;
        int nx = 300;
        float[] vp = DefaultModels.fwi2d(dh);
        PropSpec spec = PropSpec.builder(nz, nx).dh(dh).dt(1.9e-3).nt(1500).abcn(20).freeSurface(true).build();
        int[][][] src = {{{150, 1}}};
        int[][][] rec = new int[1][nx][];
        for (int r = 0; r < nx; r++) {
            rec[0][r] = new int[] {r, 1};
        }
        try (Propagator p = new Propagator(spec)) {
            Record r = p.forward(Wavelets.ricker(6, spec.nt(), spec.dt()), src, rec, vp);
            Npy.writeFloat32(Path.of("forward2d-record.npy"), r.data(), r.shape());
            Png.gather(Path.of("forward2d-gather.png"), r.data(), 0, r.nt(), r.nrec(), spec.dt(), "shot at x = 3 km", 99);
        }
        System.out.println("wrote forward2d-record.npy and forward2d-gather.png");
    }
}
