package io.libra.core.schedule;

import io.libra.core.plan.Constraint;

/**
 * In place of the interference constraint, where no relief lets a region go to any destination: the
 * destination may end above 1 + λ in the other dimension, but λ below the source's load now in the
 * critical one: the peak the move lowers is higher by more than the noise λ allows for than the one
 * it raises, since on a wrong estimate a trade only moves the peak. On nodes of unequal speed the
 * nodes cool in CPU are often the warm ones in disk; once every one of them is past 1 + λ there,
 * the reliefs hold a CPU peak in place (`libra loop --truth node-speed`, calm seed 16: stuck at Δ 0.19
 * with disk at 1.07). Traded down a move at a time, the peak passes to the destination's other
 * dimension, which then sheds it in turn. Tried after a checked forecast only, as headroom relief.
 */
public record PeakTrade(double lambda) implements MigrationCondition {
    @Override
    public Constraint constraint() {
        return Constraint.PEAK_TRADE;
    }

    @Override
    public boolean holds(MigrationCandidate c) {
        return SharedRelief.destinationAfter(c) < c.sourceLoad(c.critical()) - lambda;
    }

    @Override
    public String explain(MigrationCandidate c) {
        return "peak trade: " + c.destinationId() + " " + c.critical().other().label() + " "
                + Notes.num(c.destinationLoad(c.critical().other())) + " + " + Notes.num(c.shareAtDestination(c.critical().other()))
                + " = " + Notes.compared(SharedRelief.destinationAfter(c), " < " + c.sourceId() + " " + c.critical().label() + " "
                        + Notes.num(c.sourceLoad(c.critical())) + " − λ=", c.sourceLoad(c.critical()) - lambda);
    }
}
