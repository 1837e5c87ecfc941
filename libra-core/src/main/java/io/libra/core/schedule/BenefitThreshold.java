package io.libra.core.schedule;

import io.libra.core.plan.Constraint;

/** Benefit threshold: α′_i &gt; 1/500 on the source, so the gain outweighs the cost of moving. */
record BenefitThreshold(WorkingState state, SchedulerConfig config) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.BENEFIT_THRESHOLD;
    }

    @Override
    public boolean holds(Candidate c) {
        return benefit(c) > config.benefitThreshold();
    }

    private double benefit(Candidate c) {
        return c.score().region(state, c.region(), c.source());
    }

    @Override
    public String explain(Candidate c) {
        return "benefit threshold: " + state.region(c.region()).id() + " " + c.score().label() + " "
                + Notes.num(benefit(c)) + " > " + config.benefitThreshold();
    }
}
