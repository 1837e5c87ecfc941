package io.libra.core.model;

/** Argument checks shared by the model records; messages name the field like formats.md does. */
final class Checks {
    private Checks() {
    }

    static double nonNegative(String field, double v) {
        if (!Double.isFinite(v) || v < 0) {
            throw new IllegalArgumentException(field + ": must be a finite number >= 0, got " + v);
        }
        return v;
    }

    static double positive(String field, double v) {
        if (!Double.isFinite(v) || v <= 0) {
            throw new IllegalArgumentException(field + ": must be a finite number > 0, got " + v);
        }
        return v;
    }

    static String id(String field, String v) {
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException(field + ": must be a non-empty string");
        }
        return v;
    }
}
