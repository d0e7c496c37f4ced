package sweep.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import sweep.parallel.MpiRunner;

/**
 * A 2-rank domain-decomposed forward and gradient on the TornadoVM backend under a real {@code mpirun}
 * ({@link TornadoDdMain}): each rank's tile on the device, halo strips packed and unpacked there (forward and adjoint
 * time loops), only the strips crossing MPI; the gathered record and gradient equal the single-domain Java backend's
 * (same bits under strict math). The ranks run with this JVM's
 * TornadoVM flags (argfile, math mode); skipped without a TornadoVM device or mpirun.
 */
class TornadoDdTest {
    @Test
    void twoRankForwardAndGradientOnTornadoTilesMatchJavaSingleDomain() throws Exception {
        TornadoSupport.requireDevice();
        String home = System.getenv("TORNADOVM_HOME");
        Assumptions.assumeTrue(home != null && Files.exists(Path.of(home, "tornado-argfile")),
                "TORNADOVM_HOME with a tornado-argfile is needed to start the ranks");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/mpirun")), "no mpirun");
        List<String> jvm = new ArrayList<>(List.of("-Xmx1g", "@" + home + "/tornado-argfile",
                "-Djava.library.path=" + home + "/lib:" + MpiRunner.libraryDir(),
                "-Dtornado.load.annotation.parallel=sweep.kernels.Parallel", "-Dtornado.recover.bailout=false",
                "-Dtornado.tvm.maxbytecodesize=65536"));
        if (TornadoSupport.strict()) {
            jvm.add("-Dtornado.enable.fma=false");
            jvm.add("-Dtornado.opencl.compiler.flags=-w");
        }
        MpiRunner.Result r = MpiRunner.run(2, Duration.ofSeconds(900), jvm, TornadoDdMain.class, "2");
        System.out.println("[tornado tests] 2-rank DD forward and gradient:\n" + r.stdout());
        assertFalse(r.timedOut(), r.describe());
        assertEquals(0, r.exitCode(), r.describe());
        // 5 cases (2-D: forward, boundary saving, full storage; 3-D: forward, boundary saving) on each of 2 ranks
        assertEquals(10, r.linesStartingWith("OK ").size(), r.describe());
    }
}
