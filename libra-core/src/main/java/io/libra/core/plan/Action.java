package io.libra.core.plan;

/** One step of a plan. Actions apply in order; later ones may name regions created by splits. */
public sealed interface Action permits SplitAction, MoveAction, MergeAction, MoveTokenAction {
    /** The action's type as written in {@code libra.plan/v1}: split, move, merge or moveToken. */
    default String type() {
        // one place for the names: the interface is sealed, so this list is the whole set
        if (this instanceof SplitAction) {
            return "split";
        }
        if (this instanceof MoveAction) {
            return "move";
        }
        return this instanceof MergeAction ? "merge" : "moveToken";
    }

    Reason reason();

    /** The same action with another reason. */
    Action withReason(Reason r);
}
