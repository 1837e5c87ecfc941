package io.libra.core.plan;

/** A plan that does not fit the state it is applied to; {@code path} names the offending field. */
public final class InvalidPlanException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String path;

    public InvalidPlanException(String path, String reason) {
        super(path + ": " + reason);
        this.path = path;
    }

    public String path() {
        return path;
    }
}
