package io.libra.cli;

/** Bad input found by a command itself; its message is the one line users see (FILE: path: reason). */
final class BadInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadInputException(String line) {
        super(line, null, false, false);
    }
}
