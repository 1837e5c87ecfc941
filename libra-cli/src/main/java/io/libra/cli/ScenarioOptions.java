package io.libra.cli;

import io.libra.core.sim.Scenario;
import java.util.ArrayList;
import java.util.Iterator;
import picocli.CommandLine.Option;

/** The options that choose a simulator scenario and its size, shared by simulate and snapshot generate. */
final class ScenarioOptions {
    @Option(names = "--scenario", defaultValue = "paper-mixgraph", completionCandidates = ScenarioNames.class,
            description = "one of ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    String scenario;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the workload, layout, noise and hidden cost model (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--nodes", description = "nodes (default: the scenario's)")
    Integer nodes;

    @Option(names = "--regions", description = "regions at the start (default: the scenario's)")
    Integer regions;

    @Option(names = "--hotness", completionCandidates = Names.Shapes.class, converter = Names.ShapeConverter.class,
            description = "override how requests spread over the key space: ${COMPLETION-CANDIDATES}")
    Scenario.Shape hotness;

    @Option(names = "--values", completionCandidates = Names.ValueSpreads.class, converter = Names.ValuesConverter.class,
            description = "override how value sizes spread: ${COMPLETION-CANDIDATES}")
    Scenario.Values values;

    /** The chosen scenario at the chosen size; {@code rounds} null keeps the scenario's. */
    Scenario resolve(Integer rounds) {
        try {
            Scenario builtIn = Scenario.byName(scenario);
            Scenario s = builtIn.with(hotness == null ? builtIn.shape() : hotness, values == null ? builtIn.values() : values);
            return ScenarioText.describe(builtIn, s.resized(nodes == null ? s.nodes() : positive("--nodes", nodes),
                    regions == null ? s.regions() : positive("--regions", regions),
                    rounds == null ? s.rounds() : positive("--rounds", rounds)));
        } catch (IllegalArgumentException e) {
            throw new BadInputException("libra: " + (e.getMessage().startsWith("--") ? "" : "--scenario: ") + e.getMessage());
        }
    }

    private static int positive(String option, int v) {
        if (v < 1) {
            throw new IllegalArgumentException(option + ": must be >= 1, got " + v);
        }
        return v;
    }

    /** Completion candidates for --scenario. */
    static final class ScenarioNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return new ArrayList<>(Scenario.names()).iterator();
        }
    }
}
