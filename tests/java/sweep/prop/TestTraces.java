package sweep.prop;

/** Trace measurements shared by the physics tests: the delay of one arrival behind another, relative L2 errors. */
public final class TestTraces {
    private TestTraces() {
    }

    /**
     * Delay of trace b behind trace a, in samples (sub-sample by a parabola through the cross-correlation peak), with
     * each trace windowed to ±{@code half} samples around its largest amplitude.
     */
    public static double delay(double[] a, double[] b, int half) {
        double[] wa = window(a, half);
        double[] wb = window(b, half);
        int n = a.length;
        double best = Double.NEGATIVE_INFINITY;
        int lag = 0;
        double[] cc = new double[n];
        for (int l = 0; l < n; l++) {
            double s = 0;
            for (int t = 0; t + l < n; t++) {
                s += wa[t] * wb[t + l];
            }
            cc[l] = s;
            if (s > best) {
                best = s;
                lag = l;
            }
        }
        double y0 = cc[lag - 1];
        double y1 = cc[lag];
        double y2 = cc[lag + 1];
        return lag + 0.5 * (y0 - y2) / (y0 - 2 * y1 + y2);
    }

    private static double[] window(double[] a, int half) {
        int k = 0;
        for (int t = 1; t < a.length; t++) {
            if (Math.abs(a[t]) > Math.abs(a[k])) {
                k = t;
            }
        }
        double[] w = new double[a.length];
        for (int t = Math.max(0, k - half); t < Math.min(a.length, k + half + 1); t++) {
            w[t] = a[t];
        }
        return w;
    }

    /** ‖a − ref‖ / ‖ref‖ over every sample, in double. */
    public static double relL2(float[] a, float[] ref) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < a.length; i++) {
            double d = (double) a[i] - ref[i];
            num += d * d;
            den += (double) ref[i] * ref[i];
        }
        return Math.sqrt(num / den);
    }
}
