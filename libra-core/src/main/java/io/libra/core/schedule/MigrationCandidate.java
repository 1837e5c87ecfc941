package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import io.libra.core.model.Normalisation;

/**
 * A candidate migration as the §III-B conditions see it: what moves (a region, or the range a token
 * move hands over), from which node to which, and the normalised loads the conditions compare
 * (eq. 1–2), all before the move. Region moves and the ring planner's token moves present
 * themselves this way, so one set of condition classes checks and explains both.
 */
public interface MigrationCandidate {
    /** The dimension the move relieves. */
    Dimension critical();

    /** What the load constraint and the benefit threshold weigh: the critical dimension alone, or a baseline's score. */
    Score score();

    /** The region's id, or a phrase naming the moved range. */
    String movedId();

    String sourceId();

    String destinationId();

    /** False while only the source is chosen, so conditions test the source side alone. */
    boolean hasDestination();

    /** A′ or B′ of the source (eq. 1). */
    double sourceLoad(Dimension d);

    /** A′ or B′ of the destination (eq. 1). */
    double destinationLoad(Dimension d);

    /** α′ or β′: the moved load as a share of the source's target (eq. 2), what the source sheds. */
    double shareAtSource(Dimension d);

    /** The moved load as a share of the destination's target, what the destination gains. */
    double shareAtDestination(Dimension d);

    /** The source's deviation (eq. 3). */
    default double sourceDeviation() {
        return Normalisation.deviation(sourceLoad(Dimension.CPU), sourceLoad(Dimension.DISK));
    }
}
