package io.libra.core.plan;

/** Change the node serving a region. {@code sizeBytes} is the data that moves. */
public record MoveAction(String region, String from, String to, double sizeBytes, Reason reason) implements Action {
    @Override
    public MoveAction withReason(Reason r) {
        return new MoveAction(region, from, to, sizeBytes, r);
    }
}
