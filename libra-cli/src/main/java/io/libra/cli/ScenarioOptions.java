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

    /**
     * How large a simulated cluster may be. Every hosted region costs its node CPU in the hidden
     * model, so past about 500 regions per node there is no room left for requests; the workload is
     * defined over {@link Scenario#CELLS} key cells; and time and memory grow with regions x nodes.
     * Beyond these a run would fail deep inside or take minutes to gigabytes, so it is refused at once.
     */
    record Limits(int maxRegions, int maxRegionsPerNode, int maxRounds) {
    }

    static final Limits SIMULATE_LIMITS = new Limits(Scenario.CELLS, 500, 1000);
    static final Limits GENERATE_LIMITS = new Limits(200_000, 500, Integer.MAX_VALUE);

    /** The chosen scenario at the chosen size; {@code rounds} null keeps the scenario's. */
    Scenario resolve(Integer rounds, Limits limits) {
        Scenario s = resolve(rounds);
        if (s.regions() > limits.maxRegions()) {
            throw new BadInputException("libra: --regions: at most " + limits.maxRegions() + ", got " + s.regions());
        }
        if (s.nodes() > s.regions()) {
            throw new BadInputException("libra: --nodes: at most the number of regions (" + s.regions()
                    + "; every node starts with one), got " + s.nodes());
        }
        if ((long) s.regions() > (long) limits.maxRegionsPerNode() * s.nodes()) {
            throw new BadInputException("libra: --regions: at most " + limits.maxRegionsPerNode() + " per node ("
                    + (long) limits.maxRegionsPerNode() * s.nodes() + " on " + s.nodes() + " nodes), got " + s.regions());
        }
        if (s.rounds() > limits.maxRounds()) {
            throw new BadInputException("libra: --rounds: at most " + limits.maxRounds() + ", got " + s.rounds());
        }
        return s;
    }

    private Scenario resolve(Integer rounds) {
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
