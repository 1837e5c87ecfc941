package io.libra.core.ring;

import io.libra.core.plan.Constraint;
import io.libra.core.schedule.ActionCondition;
import io.libra.core.schedule.Notes;

/**
 * The ring's benefit threshold: the move lowers Δ by at least the configured gain, so it is worth
 * its streaming. A token move hands over a range, not one region, so its benefit is read on Δ
 * rather than on the moved share (the region scheduler's {@link io.libra.core.schedule.BenefitThreshold}).
 */
record ImbalanceGain(double minImprovement) implements ActionCondition<TokenCandidate> {
    @Override
    public Constraint constraint() {
        return Constraint.BENEFIT_THRESHOLD;
    }

    @Override
    public boolean holds(TokenCandidate c) {
        return c.deltaBefore() - c.deltaAfter() >= minImprovement;
    }

    @Override
    public String explain(TokenCandidate c) {
        return "benefit threshold: Δ " + Notes.num(c.deltaBefore()) + " -> " + Notes.num(c.deltaAfter()) + " falls by "
                + Notes.compared(c.deltaBefore() - c.deltaAfter(), " >= ", minImprovement);
    }
}
