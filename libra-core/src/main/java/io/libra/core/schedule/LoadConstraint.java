package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.plan.Constraint;

/** Load constraint: A′_dst + α′_i &lt; 1 + λ, on the scored dimension(s), against the destination's target. */
public record LoadConstraint(double lambda) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.LOAD_CONSTRAINT;
    }

    @Override
    public boolean holds(MigrationCandidate c) {
        return node(c) + moved(c) < 1 + lambda;
    }

    private static double node(MigrationCandidate c) {
        return c.score().weigh(c.destinationLoad(Dimension.CPU), c.destinationLoad(Dimension.DISK));
    }

    private static double moved(MigrationCandidate c) {
        return c.score().weigh(c.shareAtDestination(Dimension.CPU), c.shareAtDestination(Dimension.DISK));
    }

    @Override
    public String explain(MigrationCandidate c) {
        double node = node(c);
        double moved = moved(c);
        return "load constraint: " + c.destinationId() + " " + c.score().label() + " " + Notes.num(node) + " + "
                + Notes.num(moved) + " = " + Notes.compared(node + moved, " < 1+λ=", 1 + lambda);
    }
}
