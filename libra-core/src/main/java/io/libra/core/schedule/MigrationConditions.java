package io.libra.core.schedule;

import java.util.List;

/**
 * The condition objects one run checks, and the sets a move may pass (§III-B): the paper's
 * three (load, interference, benefit), shared relief in place of interference, and
 * below-source in place of the load constraint for a region that cannot be split.
 */
final class MigrationConditions {
    final LoadConstraint load;
    final InterferenceConstraint interference;
    final SharedRelief sharedRelief;
    final BelowSource belowSource;
    final BenefitThreshold benefit;
    final SplitBound splitBound;

    MigrationConditions(WorkingState state, SchedulerConfig config) {
        this.load = new LoadConstraint(state, config);
        this.interference = new InterferenceConstraint(state);
        this.sharedRelief = new SharedRelief(state, config);
        this.belowSource = new BelowSource(state);
        this.benefit = new BenefitThreshold(state, config);
        this.splitBound = new SplitBound(state, config);
    }

    List<MigrationCondition> paper() {
        return List.of(load, interference, benefit);
    }

    List<MigrationCondition> relief() {
        return List.of(load, sharedRelief, benefit);
    }

    List<MigrationCondition> whole() {
        return List.of(belowSource, benefit);
    }
}
