package sweep.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code sweep equations}: one line per installed equation, with the dimensions it runs and its settings. */
class EquationsCommandTest {
    @Test
    void listsEachEquationWithItsDimensions() {
        CliHarness.Result r = CliHarness.run("equations");
        assertEquals(0, r.code(), r.stderr());
        String acoustic = r.out().lines().filter(l -> l.startsWith("acoustic ")).findFirst().orElse("");
        String elastic = r.out().lines().filter(l -> l.startsWith("elastic ")).findFirst().orElse("");
        assertTrue(acoustic.matches("acoustic +2-D,3-D  parameters vp  record p  source types -  device solver .*"),
                acoustic);
        assertTrue(elastic.contains(" 2-D,3-D  parameters vp,vs,rho  record p,vx,vz (3-D p,vx,vy,vz)  source types"
                + " explosive,fx,fz (3-D explosive,fx,fy,fz)"), elastic);
        String visco = r.out().lines().filter(l -> l.startsWith("visco-acoustic ")).findFirst().orElse("");
        assertTrue(visco.contains("parameters vp,rho,q ") && visco.contains("  device solver yes  settings"
                + " --mechanisms=3,--q-band,--f-ref  storages checkpoint,full  ("), visco);
        assertTrue(acoustic.contains("  storages boundary,full  ("), acoustic);
    }
}
