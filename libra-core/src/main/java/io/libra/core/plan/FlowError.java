package io.libra.core.plan;

/**
 * How much a node's forecast error grows with the load a plan moves through it, in and out (its
 * gross flow, as a share of the node's target): learnt from the forecast checks and pooled over
 * them ({@code estimate.FlowFit}), an extension of formats.md's {@code estimation}.
 *
 * @param rate   forecast error per unit of normalised gross flow
 * @param weight how much the checks pooled tell the rate: the spread of the flows they saw (Σ(g − ḡ)²),
 *               decayed by window; an estimate's weight against the next check's
 */
public record FlowError(double rate, double weight) {
    public FlowError {
        if (!(rate >= 0 && weight >= 0 && Double.isFinite(rate) && Double.isFinite(weight))) {
            throw new IllegalArgumentException("rate and weight must be finite and >= 0, got " + rate + ", " + weight);
        }
    }

    /** This check's estimate pooled with an earlier one whose weight has decayed by {@code decay}. */
    public FlowError pooledWith(FlowError earlier, double decay) {
        double we = decay * earlier.weight;
        double w = weight + we;
        return w > 0 ? new FlowError((weight * rate + we * earlier.rate) / w, w) : this;
    }
}
