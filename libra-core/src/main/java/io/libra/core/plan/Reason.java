package io.libra.core.plan;

import io.libra.core.model.Dimension;
import java.util.List;

/**
 * Why an action was taken: the critical dimension, the constraints it passed and how the
 * deviations of the nodes involved change.
 *
 * @param destination null for splits and merges
 * @param note        one human sentence, e.g. "rs-2 cpu 1.31 > 1 + λ; r-7 cpu 0.04 > disk 0.01"
 */
public record Reason(Dimension criticalDimension, List<Constraint> passed, NodeDeviation source,
                     NodeDeviation destination, String note) {
    public Reason {
        passed = List.copyOf(passed);
    }

    /** The same reason with a clause added to its note. */
    public Reason withNote(String clause) {
        return new Reason(criticalDimension, passed, source, destination, note == null ? clause : note + "; " + clause);
    }
}
