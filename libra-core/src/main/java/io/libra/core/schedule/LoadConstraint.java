package io.libra.core.schedule;

import io.libra.core.plan.Constraint;

/** Load constraint: A′_dst + α′_i &lt; 1 + λ, on the scored dimension(s), against the destination's target. */
record LoadConstraint(WorkingState state, SchedulerConfig config) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.LOAD_CONSTRAINT;
    }

    @Override
    public boolean holds(Candidate c) {
        return after(c) < 1 + config.lambda();
    }

    private double after(Candidate c) {
        return c.score().node(state, c.destination()) + c.score().region(state, c.region(), c.destination());
    }

    @Override
    public String explain(Candidate c) {
        return "load constraint: " + state.nodeId(c.destination()) + " " + c.score().label() + " "
                + Notes.num(c.score().node(state, c.destination())) + " + "
                + Notes.num(c.score().region(state, c.region(), c.destination())) + " < 1+λ=" + Notes.num(1 + config.lambda());
    }
}
