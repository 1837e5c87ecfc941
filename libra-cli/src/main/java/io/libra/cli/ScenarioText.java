package io.libra.cli;

import io.libra.core.sim.Scenario;
import io.libra.core.sim.Workload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A scenario's one-line description that stays true under overrides: the built-in text names its
 * node count, hotness and value sizes, so once any of them is overridden the line is rebuilt from
 * the scenario's parts.
 */
final class ScenarioText {
    private ScenarioText() {
    }

    /** {@code resolved} with a description that matches it, given the built-in it came from. */
    static Scenario describe(Scenario builtIn, Scenario resolved) {
        List<String> overridden = new ArrayList<>();
        if (resolved.nodes() != builtIn.nodes()) {
            overridden.add("--nodes");
        }
        if (resolved.shape() != builtIn.shape()) {
            overridden.add("--hotness");
        }
        if (resolved.values() != builtIn.values()) {
            overridden.add("--values");
        }
        if (overridden.isEmpty()) {
            return resolved;
        }
        String text = parts(resolved) + " (" + String.join(", ", overridden) + " overridden)";
        return new Scenario(resolved.name(), text, resolved.nodes(), resolved.regions(), resolved.rounds(),
                resolved.capacities(), resolved.mix(), resolved.shape(), resolved.values(), resolved.shiftEvery(),
                resolved.replication(), resolved.profile());
    }

    static String parts(Scenario s) {
        List<String> p = new ArrayList<>();
        p.add(s.nodes() + " nodes" + (s.capacities() == null ? "" : " with capacities "
                + Arrays.stream(s.capacities()).mapToObj(Integer::toString).collect(Collectors.joining(":"))));
        p.add(mix(s.mix()));
        p.add(shape(s.shape()));
        p.add(values(s.values()));
        if (s.shiftEvery() > 0) {
            p.add("the hot key ranges move every " + s.shiftEvery() + " rounds");
        }
        return String.join(", ", p);
    }

    private static String mix(Workload.Mix m) {
        if (m.write() == 1) {
            return "write-only";
        }
        if (m.read() == 1) {
            return "read-only";
        }
        List<String> p = new ArrayList<>();
        if (m.read() > 0) {
            p.add(pct(m.read()) + " reads");
        }
        if (m.scan() > 0) {
            p.add(pct(m.scan()) + " scans of " + Math.round(m.rowsPerScan()) + " rows");
        }
        if (m.write() > 0) {
            p.add(pct(m.write()) + " writes");
        }
        return String.join(", ", p);
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }

    private static String shape(Scenario.Shape shape) {
        return switch (shape) {
            case MIXGRAPH -> "Mixgraph key-range hotness";
            case ZIPF -> "zipfian hotness";
            case LATEST -> "reads of the latest keys";
            case UNIFORM -> "uniform requests over the key space";
        };
    }

    private static String values(Scenario.Values values) {
        return switch (values) {
            case PARETO_ANTI_CORRELATED -> "Pareto value sizes averaging 1 KiB (hot ranges hold small values)";
            case PARETO -> "Pareto value sizes averaging 1 KiB";
            case LOGNORMAL -> "log-normal value sizes averaging 1 KiB";
            case FIXED -> "fixed 1 KiB values";
        };
    }
}
