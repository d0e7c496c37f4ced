package sweep.golden;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sweep.parallel.MpiRunner;
import sweep.prop.Gradient;
import sweep.prop.Misfit;
import sweep.prop.Propagator;
import sweep.prop.Record;
import sweep.prop.Storage;

/**
 * Golden bytes: pins the exact results of eight small problems ({@link GoldenCases}: acoustic and elastic, 2-D and
 * 3-D, CPML, a free surface in one problem per equation, orders 8 and 4, heterogeneous models, two shots; acoustic-vd
 * 2-D, visco-acoustic 3-D, acoustic-vti 2-D and acoustic-tti 2-D on one domain, whose decomposed runs the
 * conformance kit checks) as SHA-256 sums of the raw little-endian float32 bytes of
 * <ul>
 *   <li>{@code <CASE>_RECORD}: the forward record of the true model (every recorded field), used as observed data;</li>
 *   <li>{@code <CASE>_GRADIENT_FULL}, {@code <CASE>_GRADIENT_BOUNDARY_SAVING}: the gradient at the starting model,
 *       L2 misfit, every parameter (acoustic dJ/dvp; elastic dJ/dvp, dJ/dvs, dJ/drho), per storage;</li>
 *   <li>{@code <CASE>_WAVELET_GRADIENT}: dJ/dwavelet of those runs (the same with both storages);</li>
 * </ul>
 * and {@code <CASE>_MISFIT}, the misfit's raw double bits (16 hex digits; the same with both storages).
 *
 * <p>The single-domain tests go through the public facade {@link Propagator} (one API for every equation; the spec
 * names the equation) with {@value #THREADS} threads, each storage of the equation, and again with
 * {@value #OTHER_THREADS} thread and its default storage (results are documented as independent of the thread count).
 * {@link #decomposedTwoRanks()} runs the acoustic and elastic problems decomposed over 2 MPI ranks in one {@code mpirun} launch ({@link GoldenBytesMpiMain}: public
 * {@code ModelParallel} API) and checks its records and gradients against the same constants, since domain
 * decomposition is documented bit-identical to one domain. Misfit and dJ/dwavelet are pinned on one domain only: the
 * decomposed runs sum them over tiles in another order.
 *
 * <p>Pinned with the Java backend (the library's default) on x86_64, JDK 17; the inputs are built with
 * {@link StrictMath}, so they are the same bits on any JVM.
 *
 * <p><b>The rule: if this fails after a refactor, the refactor changed results.</b> Regenerate the constants (a failure
 * prints every actual value) only for an intended numerical change, and say so in the commit.
 */
class GoldenBytesTest {
    // Generated at commit 2e96b81 (Java backend, x86_64, JDK 17).
    static final String ACOUSTIC_2D_RECORD = "7d23a33fa9899ed5b67acaa0baac1a0cf78f0dfe7f99d387e66f97b7e70ea3bb";
    static final String ACOUSTIC_2D_GRADIENT_FULL = "9d26f1535af80831e9d53c14c6fd6b98e3c353927978cb6eb65e5e6527e9ddd5";
    static final String ACOUSTIC_2D_GRADIENT_BOUNDARY_SAVING =
            "b90f0fc8f85d06ceb7500092d57255a9d7f70792022fb3c9a5497d14fc12a020";
    static final String ACOUSTIC_2D_WAVELET_GRADIENT =
            "e555a0875c425f39ccd75b4d29ec22fd4aa9eb19fa280467cc5cb05b9b8cf5b2";
    static final String ACOUSTIC_2D_MISFIT = "40372be9d67d17b7"; // 23.171536832370943

    static final String ACOUSTIC_3D_RECORD = "8124088abeb372bda98358dd1daf93f44610798988ad4527f00c3b2d828e7a97";
    static final String ACOUSTIC_3D_GRADIENT_FULL = "732cce91425a67654f1aec7302d9dc5371058b7c718fecfaafc6ced8154c7c6e";
    static final String ACOUSTIC_3D_GRADIENT_BOUNDARY_SAVING =
            "899e0e3867929157b4d6abd2d281672837f5eac80dd3c08ec56c9ffd5c1a7cbd";
    static final String ACOUSTIC_3D_WAVELET_GRADIENT =
            "e3433b2bc2f4f2b04acde45a3bc080a991439ef1433f720aef4fad6e8c76a1a8";
    static final String ACOUSTIC_3D_MISFIT = "3ff07371a532cb1c"; // 1.0281845524847943

    static final String ELASTIC_2D_RECORD = "704c7c096572b6665a8837748062787cdf4c47e5d55edfb324224b797775a507";
    static final String ELASTIC_2D_GRADIENT_FULL = "0ca9b815e3aa086b58fff3dc9e3fe12583b3c6b28a30f4d8cc24a7465f6bf896";
    static final String ELASTIC_2D_GRADIENT_BOUNDARY_SAVING =
            "bb72d42a6477059a3ab1678a121c7067f4d5a71bdfaeef33e7907b11f7cdead1";
    static final String ELASTIC_2D_WAVELET_GRADIENT =
            "0f127965b05f564120f4468f7c91194c5361c48df1b3b701414d6ec0cc01b5e4";
    static final String ELASTIC_2D_MISFIT = "4005bde40587806c"; // 2.7177200729348012

    static final String ELASTIC_3D_RECORD = "2cf67714dd01a5df5656d1041e80c0196260b2a6d24b5301db507ab29002e6f5";
    static final String ELASTIC_3D_GRADIENT_FULL = "0a7532b3014ea0ce473797d843de129a74f7c2535355a10e11090b2f4b7c2133";
    static final String ELASTIC_3D_GRADIENT_BOUNDARY_SAVING =
            "196f29e6f9672dee0c11ac8b745f0f864270ad29bfd012b683fa5b49285c7be5";
    static final String ELASTIC_3D_WAVELET_GRADIENT =
            "e5a1fa3c27f14c99fd3b40fde3aeedd34da5e620a6af6aa75642318c36784e73";
    static final String ELASTIC_3D_MISFIT = "3f27f75b87d0133f"; // 0.00018284790340330513

    // Generated at commit 037598a (Java backend, x86_64, JDK 17); acoustic-vd's bytes are those of 699bd87 as well.
    static final String ACOUSTIC_VD_2D_RECORD = "91350b88583eb36fd144b86d4df4895e4b4b620c7b8ec14d8f24f4f850a4362e";
    static final String ACOUSTIC_VD_2D_GRADIENT_FULL =
            "4610ce0fe30c1722ff371d79530fcbefe97f1ac432c62260ce4b843127779751";
    static final String ACOUSTIC_VD_2D_GRADIENT_BOUNDARY_SAVING =
            "86fc4b6587bec56eb84b85852f2ddf44fd39c454ac9eb52b70fd9289ece799bd";
    static final String ACOUSTIC_VD_2D_WAVELET_GRADIENT =
            "f8f2335301341074ecd3161a5f9a764b709036f4648a9566ae0826188d364bde";
    static final String ACOUSTIC_VD_2D_MISFIT = "4025bc34c12bd094";

    static final String VISCO_ACOUSTIC_3D_RECORD = "929d54d03c776924ae72d7dc1356e685e7a8989ab1fe2118568e465223150b08";
    static final String VISCO_ACOUSTIC_3D_GRADIENT_FULL =
            "8325520dd837583b73a16a765c31b22f7e2418fc9ef46beb8552ad248abb6723";
    /** Checkpointing re-runs the forward run it replaces: full storage's bytes, pinned before it existed. */
    static final String VISCO_ACOUSTIC_3D_GRADIENT_CHECKPOINTING = VISCO_ACOUSTIC_3D_GRADIENT_FULL;
    static final String VISCO_ACOUSTIC_3D_WAVELET_GRADIENT =
            "13209233cb5f00f0d2f10281b582e048c80dbea5461af7b9ebb3aed757403bbf";
    static final String VISCO_ACOUSTIC_3D_MISFIT = "3fe0e8ff5e19ac1e";

    // acoustic-vti, pinned 2026-12-07 from its first implementation (Java, Vector API twins and portable alike)
    static final String ACOUSTIC_VTI_2D_RECORD = "a858489e8362ebcc146de956fb7f76c3d935bbc6dadf8c1b0804556d1f63a058";
    static final String ACOUSTIC_VTI_2D_GRADIENT_FULL =
            "b0aa04fc42275f539928116b1adb0e27c5c2a6d5264870b5876610c1c5836420";
    static final String ACOUSTIC_VTI_2D_GRADIENT_CHECKPOINTING = ACOUSTIC_VTI_2D_GRADIENT_FULL;
    static final String ACOUSTIC_VTI_2D_WAVELET_GRADIENT =
            "45e077ca7bb4c2b65d8562157631dbc350d24d8d2bbb2953bb936167fd7a77fc";
    static final String ACOUSTIC_VTI_2D_MISFIT = "3fff305312809c1b";

    // acoustic-tti, pinned 2026-12-07 from its first implementation
    static final String ACOUSTIC_TTI_2D_RECORD = "46cb9d6d31c9475754e5711094b78721c1cdfcc89fe5d80799206065cb592c4d";
    static final String ACOUSTIC_TTI_2D_GRADIENT_FULL =
            "76c5577f426d6154d2c2ebea11c6ee072bb249b22a87b049786fb77b18cef24b";
    static final String ACOUSTIC_TTI_2D_GRADIENT_CHECKPOINTING = ACOUSTIC_TTI_2D_GRADIENT_FULL;
    static final String ACOUSTIC_TTI_2D_WAVELET_GRADIENT =
            "38140ea46f2d2993f8e693e36d2c562ba4c965b477ede80f28025f8f390dd0a8";
    static final String ACOUSTIC_TTI_2D_MISFIT = "3ffe200834e6d436";

    static final Map<String, String> GOLDEN = Map.ofEntries(
            entry("ACOUSTIC_2D_RECORD", ACOUSTIC_2D_RECORD),
            entry("ACOUSTIC_2D_GRADIENT_FULL", ACOUSTIC_2D_GRADIENT_FULL),
            entry("ACOUSTIC_2D_GRADIENT_BOUNDARY_SAVING", ACOUSTIC_2D_GRADIENT_BOUNDARY_SAVING),
            entry("ACOUSTIC_2D_WAVELET_GRADIENT", ACOUSTIC_2D_WAVELET_GRADIENT),
            entry("ACOUSTIC_2D_MISFIT", ACOUSTIC_2D_MISFIT),
            entry("ACOUSTIC_3D_RECORD", ACOUSTIC_3D_RECORD),
            entry("ACOUSTIC_3D_GRADIENT_FULL", ACOUSTIC_3D_GRADIENT_FULL),
            entry("ACOUSTIC_3D_GRADIENT_BOUNDARY_SAVING", ACOUSTIC_3D_GRADIENT_BOUNDARY_SAVING),
            entry("ACOUSTIC_3D_WAVELET_GRADIENT", ACOUSTIC_3D_WAVELET_GRADIENT),
            entry("ACOUSTIC_3D_MISFIT", ACOUSTIC_3D_MISFIT),
            entry("ELASTIC_2D_RECORD", ELASTIC_2D_RECORD),
            entry("ELASTIC_2D_GRADIENT_FULL", ELASTIC_2D_GRADIENT_FULL),
            entry("ELASTIC_2D_GRADIENT_BOUNDARY_SAVING", ELASTIC_2D_GRADIENT_BOUNDARY_SAVING),
            entry("ELASTIC_2D_WAVELET_GRADIENT", ELASTIC_2D_WAVELET_GRADIENT),
            entry("ELASTIC_2D_MISFIT", ELASTIC_2D_MISFIT),
            entry("ELASTIC_3D_RECORD", ELASTIC_3D_RECORD),
            entry("ELASTIC_3D_GRADIENT_FULL", ELASTIC_3D_GRADIENT_FULL),
            entry("ELASTIC_3D_GRADIENT_BOUNDARY_SAVING", ELASTIC_3D_GRADIENT_BOUNDARY_SAVING),
            entry("ELASTIC_3D_WAVELET_GRADIENT", ELASTIC_3D_WAVELET_GRADIENT),
            entry("ELASTIC_3D_MISFIT", ELASTIC_3D_MISFIT),
            entry("ACOUSTIC_VD_2D_RECORD", ACOUSTIC_VD_2D_RECORD),
            entry("ACOUSTIC_VD_2D_GRADIENT_FULL", ACOUSTIC_VD_2D_GRADIENT_FULL),
            entry("ACOUSTIC_VD_2D_GRADIENT_BOUNDARY_SAVING", ACOUSTIC_VD_2D_GRADIENT_BOUNDARY_SAVING),
            entry("ACOUSTIC_VD_2D_WAVELET_GRADIENT", ACOUSTIC_VD_2D_WAVELET_GRADIENT),
            entry("ACOUSTIC_VD_2D_MISFIT", ACOUSTIC_VD_2D_MISFIT),
            entry("VISCO_ACOUSTIC_3D_RECORD", VISCO_ACOUSTIC_3D_RECORD),
            entry("VISCO_ACOUSTIC_3D_GRADIENT_FULL", VISCO_ACOUSTIC_3D_GRADIENT_FULL),
            entry("VISCO_ACOUSTIC_3D_GRADIENT_CHECKPOINTING", VISCO_ACOUSTIC_3D_GRADIENT_CHECKPOINTING),
            entry("VISCO_ACOUSTIC_3D_WAVELET_GRADIENT", VISCO_ACOUSTIC_3D_WAVELET_GRADIENT),
            entry("VISCO_ACOUSTIC_3D_MISFIT", VISCO_ACOUSTIC_3D_MISFIT),
            entry("ACOUSTIC_VTI_2D_RECORD", ACOUSTIC_VTI_2D_RECORD),
            entry("ACOUSTIC_VTI_2D_GRADIENT_FULL", ACOUSTIC_VTI_2D_GRADIENT_FULL),
            entry("ACOUSTIC_VTI_2D_GRADIENT_CHECKPOINTING", ACOUSTIC_VTI_2D_GRADIENT_CHECKPOINTING),
            entry("ACOUSTIC_VTI_2D_WAVELET_GRADIENT", ACOUSTIC_VTI_2D_WAVELET_GRADIENT),
            entry("ACOUSTIC_VTI_2D_MISFIT", ACOUSTIC_VTI_2D_MISFIT),
            entry("ACOUSTIC_TTI_2D_RECORD", ACOUSTIC_TTI_2D_RECORD),
            entry("ACOUSTIC_TTI_2D_GRADIENT_FULL", ACOUSTIC_TTI_2D_GRADIENT_FULL),
            entry("ACOUSTIC_TTI_2D_GRADIENT_CHECKPOINTING", ACOUSTIC_TTI_2D_GRADIENT_CHECKPOINTING),
            entry("ACOUSTIC_TTI_2D_WAVELET_GRADIENT", ACOUSTIC_TTI_2D_WAVELET_GRADIENT),
            entry("ACOUSTIC_TTI_2D_MISFIT", ACOUSTIC_TTI_2D_MISFIT));

    /** The thread count of the single-domain runs, and the other one each problem is rerun at (boundary saving). */
    static final int THREADS = 2;
    static final int OTHER_THREADS = 1;

    @Test
    void acoustic2d() {
        singleDomain(GoldenCases.acoustic2d());
    }

    @Test
    void acoustic3d() {
        singleDomain(GoldenCases.acoustic3d());
    }

    @Test
    void elastic2d() {
        singleDomain(GoldenCases.elastic2d());
    }

    @Test
    void elastic3d() {
        singleDomain(GoldenCases.elastic3d());
    }

    @Test
    void acousticVd2d() {
        singleDomain(GoldenCases.acousticVd2d());
    }

    @Test
    void viscoAcoustic3d() {
        singleDomain(GoldenCases.viscoAcoustic3d());
    }

    @Test
    void acousticVti2d() {
        singleDomain(GoldenCases.acousticVti2d());
    }

    @Test
    void acousticTti2d() {
        singleDomain(GoldenCases.acousticTti2d());
    }

    /**
     * The acoustic and elastic problems decomposed over 2 ranks: the same records and gradients, bit for bit, as on one
     * domain.
     */
    @Test
    void decomposedTwoRanks() throws Exception {
        MpiRunner.Result r = MpiRunner.run(2, GoldenBytesMpiMain.class);
        assertFalse(r.timedOut(), r.describe());
        assertEquals(0, r.exitCode(), r.describe());
        Map<String, String> actual = new LinkedHashMap<>();
        for (String line : r.linesStartingWith("GOLDEN ")) {
            String[] f = line.trim().split("\\s+");
            actual.put(f[1], f[2]);
        }
        List<String> expected = new ArrayList<>();
        for (GoldenCases.Problem p : GoldenCases.all()) {
            expected.add(p.name() + "_RECORD");
            for (Storage s : GoldenBytesMpiMain.storages(p)) {
                expected.add(p.name() + "_GRADIENT_" + s);
            }
        }
        assertEquals(expected, new ArrayList<>(actual.keySet()), r.describe());
        String diff = differences(actual);
        if (diff != null) {
            fail(report("2 ranks", List.of("decomposed:" + diff)));
        }
    }

    private static void singleDomain(GoldenCases.Problem p) {
        List<String> failures = new ArrayList<>();
        for (int threads : new int[] {THREADS, OTHER_THREADS}) {
            // the other thread count with the default storage only, to keep the class fast
            List<Storage> storages = p.spec().equation().storages();
            for (Storage storage : threads == THREADS ? storages : List.of(storages.get(0))) {
                Map<String, String> actual = new LinkedHashMap<>();
                try (Propagator prop = new Propagator(p.spec(threads, storage))) {
                    Record rec = prop.forward(p.wavelet(), p.sources(), p.receivers(), p.trueModel());
                    assertEquals(p.sources().length * p.spec().nt() * p.receivers()[0].length * p.spec().nfield(),
                            rec.data().length, p.name() + ": record size");
                    assertTrue(maxAbs(rec.data()) > 0, p.name() + ": the record is all zeros");
                    Gradient g = prop.forwardAndGradient(p.wavelet(), p.sources(), p.receivers(), p.startModel(),
                            rec.data(), Misfit.L2);
                    assertTrue(maxAbs(g.parameters()) > 0 && g.misfit() > 0, p.name() + ": zero gradient or misfit");
                    // the record, the misfit and dJ/dwavelet do not depend on the storage: one constant for both
                    actual.put(p.name() + "_RECORD", GoldenCases.sha256(rec.data()));
                    actual.put(p.name() + "_GRADIENT_" + storage, GoldenCases.sha256(g.parameters()));
                    actual.put(p.name() + "_WAVELET_GRADIENT", GoldenCases.sha256(g.wavelet()));
                    actual.put(p.name() + "_MISFIT", GoldenCases.bits(g.misfit()));
                }
                String diff = differences(actual);
                if (diff != null) {
                    failures.add(threads + " thread(s), " + storage + ":" + diff);
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(report(p.name(), failures));
        }
    }

    private static double maxAbs(float[] a) {
        double m = 0;
        for (float f : a) {
            m = Math.max(m, Math.abs(f));
        }
        return m;
    }

    /** The values of {@code actual} that differ from their golden constants, one line each; null when none. */
    private static String differences(Map<String, String> actual) {
        StringBuilder diff = new StringBuilder();
        for (Map.Entry<String, String> e : actual.entrySet()) {
            String want = GOLDEN.get(e.getKey());
            if (!e.getValue().equals(want)) {
                diff.append(String.format("%n    %s = \"%s\" (golden \"%s\")", e.getKey(), e.getValue(), want));
            }
        }
        return diff.length() == 0 ? null : diff.toString();
    }

    /** The failure message: what differs where, and the rule. Also printed, for the test's output file. */
    private static String report(String what, List<String> failures) {
        String msg = what + ": results differ from the golden bytes, so the code computes something else than at the"
                + " commit that pinned them. A refactor must not change these; regenerate the constants only for an"
                + " intended numerical change, and say so in the commit.\n  " + String.join("\n  ", failures);
        System.out.println(msg);
        return msg;
    }
}
