package io.libra.core.schedule;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The strategies users can choose by name; all share the same estimation. */
public final class Strategies {
    public static final String LIBRA = "libra";
    private static final Map<String, Supplier<Strategy>> BY_NAME = Map.of(
            LIBRA, CooperativeScheduler::new,
            "1d-cpu", ScoreStrategy::cpuOnly,
            "1d-io", ScoreStrategy::diskOnly,
            "2d-iso", IsolatedStrategy::new,
            "2d-wtd", ScoreStrategy::weighted);

    private Strategies() {
    }

    /** Names in the order reports list them. */
    public static List<String> names() {
        return List.of(LIBRA, "1d-cpu", "1d-io", "2d-iso", "2d-wtd");
    }

    public static Strategy byName(String name) {
        Supplier<Strategy> s = BY_NAME.get(name);
        if (s == null) {
            throw new IllegalArgumentException("strategy: unknown '" + name + "', expected one of " + names());
        }
        return s.get();
    }
}
