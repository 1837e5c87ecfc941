package io.libra.hbase.it;

import java.util.concurrent.atomic.AtomicBoolean;

/** A workload that drives its traffic on one daemon thread from {@link #start()} until {@link #stop()}. */
abstract class BackgroundWorkload implements AutoCloseable {
    private final AtomicBoolean running = new AtomicBoolean();
    private final String name;
    private Thread driver;

    BackgroundWorkload(String name) {
        this.name = name;
    }

    /** The traffic loop; it runs while {@link #running()}. */
    protected abstract void drive();

    protected final boolean running() {
        return running.get();
    }

    /** Ends the loop from inside it (the client cannot go on). */
    protected final void giveUp() {
        running.set(false);
    }

    /** Runs the traffic in the background until {@link #stop()}. */
    final void start() {
        running.set(true);
        driver = new Thread(this::drive, name);
        driver.setDaemon(true);
        driver.start();
    }

    final void stop() throws InterruptedException {
        running.set(false);
        if (driver != null) {
            driver.join(10_000);
            if (driver.isAlive()) {
                // a client call still retrying: say where, for a slow run's post-mortem
                Throwable where = new Throwable(name + " still in a client call 10 s after stop");
                where.setStackTrace(driver.getStackTrace());
                where.printStackTrace(System.out);
                driver.join(50_000);
            }
        }
    }

    @Override
    public final void close() throws InterruptedException {
        stop();
    }
}
