package io.libra.core.schedule;

import io.libra.core.model.Dimension;

/**
 * What a scheduler balances: {@code cpu·A′ + disk·B′}. Libra scores its critical dimension
 * alone, (1, 0) or (0, 1); the baselines score one dimension or a weighted sum (2d-wtd). The
 * migration conditions that compare loads do so on a score, so baselines share them.
 */
public record Score(double cpu, double disk) {
    public static final Score CPU = new Score(1, 0);
    public static final Score DISK = new Score(0, 1);

    public static Score of(Dimension d) {
        return d == Dimension.CPU ? CPU : DISK;
    }

    /** The score of a pair of figures, one per dimension. */
    public double weigh(double cpuFigure, double diskFigure) {
        return cpu * cpuFigure + disk * diskFigure;
    }

    double node(WorkingState s, int j) {
        return weigh(s.normalised(j, Dimension.CPU), s.normalised(j, Dimension.DISK));
    }

    double region(WorkingState s, int r, int j) {
        return weigh(s.share(r, Dimension.CPU, j), s.share(r, Dimension.DISK, j));
    }

    /** The dimension a reason names: the one with the larger weight. */
    Dimension dimension() {
        return cpu >= disk ? Dimension.CPU : Dimension.DISK;
    }

    public String label() {
        if (this.equals(CPU) || this.equals(DISK)) {
            return dimension().label();
        }
        return "score(" + Notes.num(cpu) + "·cpu+" + Notes.num(disk) + "·disk)";
    }
}
