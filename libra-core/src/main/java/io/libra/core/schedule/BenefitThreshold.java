package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;

/** Benefit threshold: α′_i &gt; 1/500 on the source, so the gain outweighs the cost of moving. */
public record BenefitThreshold(double threshold) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.BENEFIT_THRESHOLD;
    }

    @Override
    public boolean holds(MigrationCandidate c) {
        return benefit(c) > threshold;
    }

    private static double benefit(MigrationCandidate c) {
        return c.score().weigh(c.shareAtSource(Dimension.CPU), c.shareAtSource(Dimension.DISK));
    }

    @Override
    public String explain(MigrationCandidate c) {
        return "benefit threshold: " + c.movedId() + " " + c.score().label() + " "
                + Notes.compared(benefit(c), " > ", threshold);
    }
}
