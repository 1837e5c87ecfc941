package io.libra.cli;

import picocli.CommandLine.Option;

/** The --lambda option of plan, compare and simulate: one description of what λ does. */
final class LambdaOption {
    @Option(names = "--lambda", defaultValue = "0.05", paramLabel = "<lambda>", description = "λ, the tolerated imbalance: a node more than λ above its "
            + "target (1+λ) in CPU or disk is relieved, planning stops once every node is within it, and regions above λ/2 "
            + "may be split; larger means fewer actions (default: ${DEFAULT-VALUE})")
    double value;
}
