package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;

/**
 * In place of the interference constraint: the source is above its target in the other
 * dimension too (it wants to shed both), and the destination stays within 1 + λ there. Without
 * this, a cluster whose CPU and disk line up (every region with α′ = β′) could never be balanced.
 */
record SharedRelief(WorkingState state, SchedulerConfig config) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.SHARED_RELIEF;
    }

    @Override
    public boolean holds(Candidate c) {
        Dimension o = c.critical().other();
        return state.normalised(c.source(), o) > 1.0 && destinationAfter(c) < 1 + config.lambda();
    }

    private double destinationAfter(Candidate c) {
        Dimension o = c.critical().other();
        return state.normalised(c.destination(), o) + state.share(c.region(), o, c.destination());
    }

    @Override
    public String explain(Candidate c) {
        Dimension o = c.critical().other();
        return "shared relief: " + state.nodeId(c.source()) + " " + o.label() + " "
                + Notes.num(state.normalised(c.source(), o)) + " > 1 and " + state.nodeId(c.destination()) + " "
                + o.label() + " " + Notes.num(state.normalised(c.destination(), o)) + " + "
                + Notes.num(state.share(c.region(), o, c.destination())) + " < 1+λ=" + Notes.num(1 + config.lambda());
    }
}
