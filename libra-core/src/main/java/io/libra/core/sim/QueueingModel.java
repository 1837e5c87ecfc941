package io.libra.core.sim;

/**
 * An M/M/1-style view of each node resource (its CPU as one server of {@code cores} speed, its
 * disk as one server of its bandwidth): utilisation ρ = load / capacity, per-request service time
 * S = ρ / requests, mean response S / (1 − ρ). A request's latency on a node is taken as
 * exponential with the sum of its CPU and disk response times; the cluster's latency is the
 * mixture over nodes weighted by the requests each serves.
 */
public final class QueueingModel {
    /** Utilisation at which a resource counts as saturated: response times are capped there. */
    public static final double SATURATED = 0.999;

    private QueueingModel() {
    }

    /** How far the offered load can grow before the busiest resource saturates (1 / peak utilisation). */
    public static double saturationScale(Score s) {
        double peak = s.peakUtilisation();
        return peak > 0 ? 1 / peak : Double.POSITIVE_INFINITY;
    }

    /** The 99th percentile latency in milliseconds with every node's load scaled by {@code scale}. */
    public static double p99Millis(Score s, double scale) {
        int n = s.nodes().size();
        double[] weight = new double[n];
        double[] mean = new double[n];
        double total = 0;
        for (int j = 0; j < n; j++) {
            NodeTruth t = s.nodes().get(j);
            NodeSpec spec = s.specs().get(j);
            double requests = t.requests() * scale;
            if (requests <= 0) {
                continue;
            }
            mean[j] = response(t.cpu() * scale / spec.cpuCores(), requests)
                    + response(t.disk() * scale / spec.diskBytesPerSec(), requests);
            weight[j] = requests;
            total += requests;
        }
        if (total <= 0) {
            return 0;
        }
        return percentile(weight, mean, total, 0.99) * 1000;
    }

    private static double response(double rho, double requests) {
        double r = Math.min(rho, SATURATED);
        double service = rho / requests;
        return service / (1 - r);
    }

    /** The t at which the weighted mixture of exponentials has 1 − q of its mass left, by bisection. */
    private static double percentile(double[] weight, double[] mean, double total, double q) {
        double hi = 0;
        for (double m : mean) {
            hi = Math.max(hi, m);
        }
        hi *= 50;
        double lo = 0;
        for (int it = 0; it < 200; it++) {
            double mid = (lo + hi) / 2;
            double tail = 0;
            for (int j = 0; j < mean.length; j++) {
                if (weight[j] > 0 && mean[j] > 0) {
                    tail += weight[j] / total * Math.exp(-mid / mean[j]);
                }
            }
            if (tail > 1 - q) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }
}
