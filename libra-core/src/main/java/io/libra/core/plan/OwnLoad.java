package io.libra.core.plan;

import io.libra.core.model.Dimension;
import java.util.Locale;
import java.util.Optional;

/**
 * A node whose measured load an estimate found to be partly its own, not its regions': a
 * background of its own, or (in CPU) a speed of its own. Plans carry these
 * ({@code estimation.ownLoad}, an extension of formats.md) so a later estimate keeps them on
 * nodes whose regions have not changed since, where its windows cannot show them again.
 *
 * @param id   the node
 * @param cpu  what its CPU has of its own; null when nothing
 * @param disk what its disk has of its own; null when nothing
 */
public record OwnLoad(String id, Kind cpu, Kind disk) {
    /** How a node's own load shows in its measured total. */
    public enum Kind {
        /** Added to whatever its regions cost. */
        BACKGROUND,
        /** Its regions' work costs a factor of its own there. */
        SPEED;

        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The kind named as in JSON; empty when unknown. */
        public static Optional<Kind> byName(String name) {
            for (Kind k : values()) {
                if (k.jsonName().equals(name)) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }
    }

    public OwnLoad {
        if (cpu == null && disk == null) {
            throw new IllegalArgumentException("node " + id + ": own load must name cpu or disk");
        }
    }

    /** What the node has of its own in {@code d}; null when nothing. */
    public Kind kind(Dimension d) {
        return d == Dimension.CPU ? cpu : disk;
    }
}
