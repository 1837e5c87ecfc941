package io.libra.hbase;

import io.libra.core.estimate.EstimationConfig;
import io.libra.core.schedule.SchedulerConfig;
import io.libra.core.schedule.Strategies;
import java.time.Duration;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * Every {@code hbase.libra.*} key with its default. The balancer reads it at start and again on
 * each {@code onConfigurationChange}; a bad value is reported by key and the default kept, so a
 * typo in hbase-site.xml never stops the master.
 *
 * @param fluctuationGuard 0 disables the guard
 */
public record LibraConfig(String strategy, double lambda, double correctionFactor, int maxMovesPerRun,
                          boolean dryRun, boolean splitting, double fluctuationGuard, int reporterPort,
                          Duration reporterTimeout, Duration staleAfter, double defaultCpuCores,
                          int reporterThreads, int maxSplitsPerRun, double regionCountBand, String snapshotDir,
                          int historyWindows, boolean historySaved, Duration historyFileMaxAge) {
    public static final String PREFIX = "hbase.libra.";
    public static final String STRATEGY = PREFIX + "strategy";
    public static final String LAMBDA = PREFIX + "lambda";
    public static final String CORRECTION_FACTOR = PREFIX + "correction.factor";
    public static final String MAX_MOVES = PREFIX + "max.moves.per.run";
    public static final String DRY_RUN = PREFIX + "dry.run";
    public static final String SPLITTING = PREFIX + "splitting";
    public static final String FLUCTUATION_GUARD = PREFIX + "fluctuation.guard";
    public static final String REPORTER_PORT = PREFIX + "reporter.port";
    public static final String REPORTER_TIMEOUT_MS = PREFIX + "reporter.timeout.ms";
    public static final String STALE_AFTER_MS = PREFIX + "reporter.stale.after.ms";
    public static final String DEFAULT_CPU_CORES = PREFIX + "default.cpu.cores";
    /** How many RegionServers the master asks for their report at once. */
    public static final String REPORTER_THREADS = PREFIX + "reporter.pull.threads";
    public static final String MAX_SPLITS = PREFIX + "max.splits.per.run";
    /** Region counts are kept within this share of the mean (secondary objective). */
    public static final String REGION_COUNT_BAND = PREFIX + "region.count.band";
    /** Master directory where each dry-run balance writes its window as a libra.snapshot/v1 file; empty = off. */
    public static final String SNAPSHOT_DIR = PREFIX + "snapshot.dir";
    /** Earlier windows per RS group the cost model is fitted on, and whose last plan's forecast is checked; 0 = off. */
    public static final String HISTORY_WINDOWS = PREFIX + "history.windows";
    /** Whether each group's history is also saved under hbase.rootdir/.libra for the next master; false = memory only. */
    public static final String HISTORY_SAVE = PREFIX + "history.save";
    /** A saved history file not written for this long belongs to a group gone (removed, regrouped) and is deleted. */
    public static final String HISTORY_FILE_MAX_AGE_MS = PREFIX + "history.file.max.age.ms";

    public static final LibraConfig DEFAULT = new LibraConfig(Strategies.LIBRA, SchedulerConfig.DEFAULT.lambda(),
            EstimationConfig.PAPER_CORRECTION_FACTOR, 50, true, true, 0.20, 0,
            Duration.ofSeconds(2), Duration.ofSeconds(120), 8, 32, 4, 0.2, "", 3, true, Duration.ofDays(1));

    /** Reads every key; {@code problems} receives one line per rejected value. */
    public static LibraConfig from(Configuration conf, java.util.function.Consumer<String> problems) {
        LibraConfig d = DEFAULT;
        String strategy = conf.getTrimmed(STRATEGY, d.strategy()).toLowerCase(Locale.ROOT);
        if (!Strategies.names().contains(strategy)) {
            problems.accept(STRATEGY + ": unknown '" + strategy + "', expected one of " + Strategies.names()
                    + "; using " + d.strategy());
            strategy = d.strategy();
        }
        return new LibraConfig(strategy,
                number(conf, LAMBDA, d.lambda(), 0, 10, false, problems),
                number(conf, CORRECTION_FACTOR, d.correctionFactor(), 0, 1000, false, problems),
                (int) number(conf, MAX_MOVES, d.maxMovesPerRun(), 0, 1_000_000, true, problems),
                conf.getBoolean(DRY_RUN, d.dryRun()),
                conf.getBoolean(SPLITTING, d.splitting()),
                number(conf, FLUCTUATION_GUARD, d.fluctuationGuard(), 0, 100, true, problems),
                (int) number(conf, REPORTER_PORT, d.reporterPort(), 0, 65535, true, problems),
                Duration.ofMillis((long) number(conf, REPORTER_TIMEOUT_MS, d.reporterTimeout().toMillis(),
                        0, 600_000, false, problems)),
                Duration.ofMillis((long) number(conf, STALE_AFTER_MS, d.staleAfter().toMillis(),
                        0, 86_400_000, false, problems)),
                number(conf, DEFAULT_CPU_CORES, d.defaultCpuCores(), 0, 100_000, false, problems),
                (int) number(conf, REPORTER_THREADS, d.reporterThreads(), 1, 1024, true, problems),
                (int) number(conf, MAX_SPLITS, d.maxSplitsPerRun(), 0, 100_000, true, problems),
                number(conf, REGION_COUNT_BAND, d.regionCountBand(), 0, 100, true, problems),
                conf.getTrimmed(SNAPSHOT_DIR, d.snapshotDir()),
                (int) number(conf, HISTORY_WINDOWS, d.historyWindows(), 0, 100, true, problems),
                conf.getBoolean(HISTORY_SAVE, d.historySaved()),
                Duration.ofMillis((long) number(conf, HISTORY_FILE_MAX_AGE_MS, d.historyFileMaxAge().toMillis(),
                        60_000, 365L * 86_400_000, true, problems)));
    }

    /** A number in (min, max], or [min, max] when {@code minInclusive}; else the default. */
    private static double number(Configuration conf, String key, double dflt, double min, double max,
                                 boolean minInclusive, java.util.function.Consumer<String> problems) {
        String raw = conf.getTrimmed(key);
        if (raw == null || raw.isEmpty()) {
            return dflt;
        }
        try {
            double v = Double.parseDouble(raw);
            boolean aboveMin = minInclusive ? v >= min : v > min;
            if (aboveMin && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.accept(String.format(Locale.ROOT, "%s: must be a number in %s%s, %s], got '%s'; using %s",
                key, minInclusive ? "[" : "(", fmt(min), fmt(max), raw, fmt(dflt)));
        return dflt;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    public SchedulerConfig scheduler() {
        return SchedulerConfig.DEFAULT.withLambda(lambda).withSplitting(splitting);
    }

    public EstimationConfig estimation() {
        return EstimationConfig.DEFAULT.withCorrectionFactor(correctionFactor);
    }
}
