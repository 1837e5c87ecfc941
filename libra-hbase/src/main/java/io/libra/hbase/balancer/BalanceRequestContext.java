package io.libra.hbase.balancer;

import java.util.Optional;

/**
 * Whether the balance call in progress on this thread is a dry run. The master calls the
 * observer's {@code preBalance} and then the balancer on the same thread, but tells the
 * balancer nothing about the request; {@link LibraMasterObserver} passes it on here. Without
 * the observer the answer is unknown, and Libra then never splits (a split cannot be undone
 * by a dry run's caller).
 */
public final class BalanceRequestContext {
    private static final ThreadLocal<Boolean> DRY_RUN = new ThreadLocal<>();

    private BalanceRequestContext() {
    }

    static void begin(boolean dryRun) {
        DRY_RUN.set(dryRun);
    }

    static void end() {
        DRY_RUN.remove();
    }

    static Optional<Boolean> dryRun() {
        return Optional.ofNullable(DRY_RUN.get());
    }
}
