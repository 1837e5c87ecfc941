package io.libra.core.model;

/** The two load dimensions Libra balances together. */
public enum Dimension {
    CPU, DISK;

    public Dimension other() {
        return this == CPU ? DISK : CPU;
    }

    /** Lower-case name used in plans and reports ("cpu", "disk"). */
    public String label() {
        return this == CPU ? "cpu" : "disk";
    }
}
