package sweep.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Box}: empty boxes, volumes, and {@link Box#minus} covering a box less an inner one exactly once. */
class BoxTest {
    @Test
    void emptyBoxesAreNull() {
        assertNull(Box.orNull(3, 3, 0, 1, 0, 5));
        assertNull(Box.orNull(0, 2, 1, 1, 0, 5));
        assertNull(Box.orNull(0, 2, 0, 1, 6, 5));
        assertEquals(new Box(0, 2, 0, 1, 0, 5), Box.orNull(0, 2, 0, 1, 0, 5));
    }

    @Test
    void volumes() {
        Box a = new Box(1, 4, 2, 7, 0, 10);
        assertEquals(3L * 5 * 10, a.volume());
        assertEquals(150 + 8, Box.volume(List.of(a, new Box(0, 2, 0, 2, 0, 2))));
        assertEquals(a, Box.of(new int[] {1, 4, 2, 7, 0, 10}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Box.of(new int[] {1, 2}));
        assertTrue(e.getMessage().contains("got 2"), e.getMessage());
    }

    @Test
    void minusCoversEveryCellOnceAndNoneOfTheInnerBox() {
        Random r = new Random(3);
        for (int trial = 0; trial < 200; trial++) {
            Box outer = new Box(0, 1 + r.nextInt(6), 0, 1 + r.nextInt(6), 0, 1 + r.nextInt(6));
            Box inner = Box.orNull(r.nextInt(outer.z1()), r.nextInt(outer.z1() + 1), r.nextInt(outer.y1()),
                    r.nextInt(outer.y1() + 1), r.nextInt(outer.x1()), r.nextInt(outer.x1() + 1));
            List<Box> rest = outer.minus(inner);
            for (Box b : rest) {
                assertTrue(b.volume() > 0, "no empty piece: " + b);
            }
            for (int z = 0; z < outer.z1(); z++) {
                for (int y = 0; y < outer.y1(); y++) {
                    for (int x = 0; x < outer.x1(); x++) {
                        int n = 0;
                        for (Box b : rest) {
                            n += b.contains(z, y, x) ? 1 : 0;
                        }
                        boolean in = inner != null && inner.contains(z, y, x);
                        assertEquals(in ? 0 : 1, n, "cell (" + z + ", " + y + ", " + x + ") of " + outer + " less "
                                + inner + " in " + rest);
                    }
                }
            }
        }
    }
}
