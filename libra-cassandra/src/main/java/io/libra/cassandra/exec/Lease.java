package io.libra.cassandra.exec;

import java.util.Optional;

/**
 * The exclusive right to move tokens on a ring, so two sidecars pointed at one ring never both
 * execute. A job takes it before it starts, takes it again before every move (renewing it, or
 * finding it lost), and gives it up once it has ended and cleaned up.
 */
public interface Lease extends AutoCloseable {
    /** A ring with one sidecar: never refused, and nothing to hold. */
    Lease NONE = new Lease() {
        @Override
        public Optional<String> acquire() {
            return Optional.empty();
        }

        @Override
        public void release() {
        }

        @Override
        public boolean held() {
            return false;
        }

        @Override
        public void close() {
        }
    };

    /**
     * Takes or renews the lease: empty when this sidecar holds it now, else one line saying why not.
     *
     * @throws Unavailable when the lease's store cannot answer now: a job waits and asks again
     */
    Optional<String> acquire();

    /** Gives the lease up if held (never throws: an unreleased lease lapses after its TTL). */
    void release();

    /** Whether this sidecar holds the lease now, as far as it knows (taken and not given up; NONE: never). */
    boolean held();

    /**
     * Stops renewing without giving the lease up: a job cut short by a stop keeps it until its TTL
     * lapses, and the same sidecar (same owner) takes it straight back when it restarts and resumes.
     */
    @Override
    void close();

    /**
     * The lease's store did not answer (a timeout while a node moves, a node between states): unlike
     * a refusal it says nothing about who holds the lease, so it is worth asking again.
     */
    final class Unavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
