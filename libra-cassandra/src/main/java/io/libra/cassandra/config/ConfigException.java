package io.libra.cassandra.config;

/** A configuration problem, worded as one line for the operator. */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }
}
