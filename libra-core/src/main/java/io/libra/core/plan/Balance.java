package io.libra.core.plan;

/**
 * How balanced a cluster is: Max/Mean per dimension (of utilisation, when capacities are
 * known) and the imbalance degree Δ of eq. 4.
 */
public record Balance(double cpuMaxOverMean, double diskMaxOverMean, double imbalanceDegree) {
}
