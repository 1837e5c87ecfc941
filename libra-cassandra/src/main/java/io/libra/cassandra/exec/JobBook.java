package io.libra.cassandra.exec;

import java.time.Clock;

/**
 * Every change to a job goes through here: made under one lock, then journaled at once, so that
 * the API reads a consistent job and a restarted daemon finds the last state written.
 */
final class JobBook {
    final Object lock = new Object();
    private final Journal journal;
    private final Clock clock;

    JobBook(Journal journal, Clock clock) {
        this.journal = journal;
        this.clock = clock;
    }

    Journal journal() {
        return journal;
    }

    void update(Job j, Runnable change) {
        synchronized (lock) {
            change.run();
            journal.write(j);
        }
    }

    void event(Job j, String what) {
        update(j, () -> j.events.add(clock.instant() + " " + what));
    }

    /** A change and its event in one journal write (a final state must not be followed by more writes). */
    void update(Job j, Runnable change, String what) {
        update(j, () -> {
            change.run();
            j.events.add(clock.instant() + " " + what);
        });
    }
}
