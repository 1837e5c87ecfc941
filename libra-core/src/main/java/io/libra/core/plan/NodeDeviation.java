package io.libra.core.plan;

/** A node's deviation δ_j (eq. 3) before and after an action. */
public record NodeDeviation(String node, double before, double after) {
}
