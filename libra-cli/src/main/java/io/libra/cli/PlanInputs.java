package io.libra.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The snapshot and plan files that explain and evaluate both read. */
final class PlanInputs {
    @Option(names = "--snapshot", required = true, paramLabel = "FILE", description = "the snapshot the plan is for")
    Path snapshot;

    @Option(names = "--plan", required = true, paramLabel = "PLAN.json", description = "the plan to check")
    Path plan;
}
