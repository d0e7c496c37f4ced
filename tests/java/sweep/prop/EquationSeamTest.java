package sweep.prop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import sweep.elastic.ElasticHalo;
import sweep.equation.Equations;
import sweep.equation.WaveEquation;

/**
 * The equation seam: what each equation declares, the spec's elastic settings, and the {@link Propagator} facade's
 * elastic path, which must give the elastic solver's bits (records, gradients, misfit) through the one API.
 */
class EquationSeamTest {
    @Test
    void equationsDeclareParametersFieldsAndExchanges() {
        WaveEquation a = Equations.named("acoustic");
        WaveEquation e = Equations.named("elastic");
        assertEquals(List.of("vp"), a.parameterNames());
        assertEquals(List.of("vp", "vs", "rho"), e.parameterNames());
        assertEquals(List.of("vx", "vz", "sxx", "szz", "sxz"), e.fields(2));
        assertEquals(9, e.fields(3).size());
        assertEquals(List.of("p", "vx", "vy", "vz"), e.recordable(3));
        // every acoustic exchange is one field; elastic: velocities, stresses, node gradients of each
        assertEquals(1, a.maxExchangeComponents(3));
        assertEquals(3, e.maxExchangeComponents(2));
        assertEquals(6, e.maxExchangeComponents(3));
        assertEquals(ElasticHalo.Point.values().length + 1, e.haloPoints(2).size());
        for (HaloPoint p : e.haloPoints(3)) {
            if (p.name().contains("VELOCITY")) {
                assertEquals(List.of("vx", "vy", "vz"), p.fields());
            }
        }
        assertEquals(0, a.modelMargin(8));
        assertEquals(5, e.modelMargin(8));
        assertEquals(2, a.pmlAuxiliariesPerAxis(2));
        assertEquals(4, e.pmlAuxiliariesPerAxis(2));
        assertEquals(6, e.pmlAuxiliariesPerAxis(3));
    }

    @Test
    void elasticSettingsLiveInTheSpec() {
        PropSpec.Builder b = PropSpec.builder(20, 30).equation("elastic").dh(10).dt(1e-3).nt(10);
        PropSpec d = b.build();
        assertEquals("explosive", d.sourceType());
        assertEquals(List.of("p", "vx", "vz"), d.recordFields());
        PropSpec s = b.sourceType("FX").recordFields("vz,p").build();
        assertEquals("fx", s.sourceType());
        assertEquals(2, s.nfield());
        assertEquals(List.of("vz", "p"), s.withShape(20, 40).recordFields());
        assertTrue(d.fingerprint() != s.fingerprint(), "source type and fields are part of the fingerprint");
        assertTrue(s.fingerprint() != b.recordFields("p,vz").build().fingerprint(), "the field order is too");
        PropSpec ac = PropSpec.builder(20, 30).dh(10).dt(1e-3).nt(10).build();
        assertEquals(null, ac.sourceType());
        assertEquals(1, ac.nfield());
        assertThrows(IllegalArgumentException.class, () -> PropSpec.builder(20, 30).dh(10).dt(1e-3).nt(10)
                .recordFields(List.of("vx")).build());
    }
}
