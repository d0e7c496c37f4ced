package sweep.kernels;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the loop variable of a data-parallel loop in a kernel. TornadoVM treats it as its own
 * {@code @Parallel} when started with {@code -Dtornado.load.annotation.parallel=sweep.kernels.Parallel};
 * the Java backend splits the outermost annotated loop's range across its threads.
 */
@Target(ElementType.TYPE_USE)
@Retention(RetentionPolicy.RUNTIME)
public @interface Parallel {
}
