package io.libra.cli;

import io.libra.core.sim.Scenario;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;

/** Enum option values as the docs write them: lower case, shown and accepted so ('-' may stand for '_'). */
final class Names {
    private Names() {
    }

    static List<String> of(Enum<?>[] values) {
        return Arrays.stream(values).map(v -> v.name().toLowerCase(Locale.ROOT)).toList();
    }

    static <E extends Enum<E>> E parse(Class<E> type, String text) {
        String name = text.trim().replace('-', '_').toUpperCase(Locale.ROOT);
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(name)) {
                return e;
            }
        }
        throw new CommandLine.TypeConversionException("unknown '" + text + "', expected one of "
                + String.join(", ", of(type.getEnumConstants())));
    }

    /** Completion candidates (and help text) for --hotness. */
    static final class Shapes implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return of(Scenario.Shape.values()).iterator();
        }
    }

    /** Completion candidates (and help text) for --values. */
    static final class ValueSpreads implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return of(Scenario.Values.values()).iterator();
        }
    }

    static final class ShapeConverter implements CommandLine.ITypeConverter<Scenario.Shape> {
        @Override
        public Scenario.Shape convert(String value) {
            return parse(Scenario.Shape.class, value);
        }
    }

    static final class ValuesConverter implements CommandLine.ITypeConverter<Scenario.Values> {
        @Override
        public Scenario.Values convert(String value) {
            return parse(Scenario.Values.class, value);
        }
    }
}
