package io.libra.core.schedule;

import io.libra.core.model.Dimension;
import java.util.List;

/** Short human sentences for reasons; plain concatenation because plans can hold many actions. */
final class Notes {
    private Notes() {
    }

    static String num(double x) {
        return Double.toString(Math.round(x * 1000) / 1000.0);
    }

    /** Why the source sheds load: its critical dimension is above its target. */
    static String critical(WorkingState state, int source, Dimension d) {
        return state.nodeId(source) + " " + d.label() + " " + num(state.normalised(source, d)) + " > 1 (critical)";
    }

    /** The trigger followed by each passed condition's own test, evaluated before the action. */
    static String passed(String trigger, List<MigrationCondition> passed, Candidate c) {
        StringBuilder b = new StringBuilder(trigger);
        for (MigrationCondition m : passed) {
            b.append("; ").append(m.explain(c));
        }
        return b.toString();
    }

    static String split(String trigger, SplitBound bound, Candidate c, double ratio) {
        return trigger + "; " + bound.explain(c) + " and no region on the node could move whole; split at load ratio "
                + num(ratio);
    }
}
