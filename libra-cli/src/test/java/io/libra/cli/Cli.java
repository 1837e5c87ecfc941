package io.libra.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the real command line in-process and captures what it prints. */
final class Cli {
    record Result(int code, String out, String err) {
    }

    private Cli() {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LibraCli.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }
}
