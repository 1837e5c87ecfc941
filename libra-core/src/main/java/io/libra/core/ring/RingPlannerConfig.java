package io.libra.core.ring;

/**
 * @param lambda           λ: plan only while Δ exceeds it, and stop moving once below
 * @param maxMoves         token moves per run at most
 * @param maxMoveBytes     bytes one move may stream at most; a longer move is shortened (0 = no cap)
 * @param slicesPerSegment how finely a segment is cut into candidate token positions
 * @param minImprovement   benefit threshold: a move must lower Δ by at least this much
 */
public record RingPlannerConfig(double lambda, int maxMoves, double maxMoveBytes, int slicesPerSegment,
                                double minImprovement) {
    public RingPlannerConfig {
        if (!(lambda >= 0) || maxMoves < 0 || !(maxMoveBytes >= 0) || slicesPerSegment < 1 || !(minImprovement >= 0)) {
            throw new IllegalArgumentException("ring planner: lambda, maxMoves, maxMoveBytes, minImprovement must be >= 0"
                    + " and slicesPerSegment >= 1");
        }
    }

    /**
     * After a forecast that missed by more than it claimed to fix: nodes within {@code lambda} of
     * their target count as balanced, and a move must lower Δ by at least {@code minGain} (the
     * measured error), so what is planned exceeds what the estimate is known to get wrong.
     */
    public RingPlannerConfig conservative(double lambda, double minGain) {
        return new RingPlannerConfig(Math.max(this.lambda, lambda), maxMoves, maxMoveBytes, slicesPerSegment,
                Math.max(minImprovement, minGain));
    }

    public static RingPlannerConfig defaults() {
        return new RingPlannerConfig(0.1, 3, 0, 16, 0.005);
    }
}
