package io.libra.core.plan;

/** Why a plan has the actions it has. */
public enum PlanStatus {
    /** Δ > λ and actions were found. */
    PLANNED,
    /** Δ ≤ λ already: hysteresis, nothing to do. */
    BALANCED,
    /** Δ > λ but no region qualified under the constraints. */
    STUCK,
    /** The fluctuation guard saw consecutive windows differ too much; planning suspended. */
    SUSPENDED
}
