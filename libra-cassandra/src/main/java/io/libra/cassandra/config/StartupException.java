package io.libra.cassandra.config;

/**
 * The daemon cannot start (port taken, journal directory not writable, no node answers JMX):
 * one line for the operator, and the exit code the launcher returns.
 */
public final class StartupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StartupException(String message) {
        super(message);
    }
}
