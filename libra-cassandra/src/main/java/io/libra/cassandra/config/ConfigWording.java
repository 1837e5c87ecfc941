package io.libra.cassandra.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.util.Collection;
import java.util.Map;

/** Turns Jackson's and SnakeYAML's exceptions into the operator's words: what was expected, what was found. */
final class ConfigWording {
    private ConfigWording() {
    }

    /** "must be a whole number, got "seven"" for a value of the wrong type. */
    static String mismatch(MismatchedInputException e) {
        String expected = expected(e.getTargetType());
        if (e instanceof InvalidFormatException f) {
            return expected + ", got \"" + f.getValue() + "\"";
        }
        String found = found(e);
        return found == null ? expected : expected + ", got " + found;
    }

    private static String expected(Class<?> t) {
        if (t == null) {
            return "has the wrong type";
        }
        if (t == String.class) {
            return "must be a single value (text)";
        }
        if (t == int.class || t == Integer.class || t == long.class || t == Long.class) {
            return "must be a whole number";
        }
        if (t == double.class || t == Double.class) {
            return "must be a number";
        }
        if (t == boolean.class || t == Boolean.class) {
            return "must be true or false";
        }
        if (Collection.class.isAssignableFrom(t)) {
            return "must be a list";
        }
        if (Map.class.isAssignableFrom(t) || t.getName().startsWith("io.libra.")) {
            return "must be a mapping (key: value lines)";
        }
        return "has the wrong type";
    }

    private static String found(MismatchedInputException e) {
        JsonToken t = e.getProcessor() instanceof JsonParser p ? p.currentToken() : null;
        if (t == null) {
            return fromMessage(e.getOriginalMessage());
        }
        JsonParser p = (JsonParser) e.getProcessor();
        switch (t) {
            case START_ARRAY:
                return "a list";
            case START_OBJECT:
                return "a mapping";
            case VALUE_NULL:
                return "nothing";
            default:
                try {
                    return "\"" + p.getText() + "\"";
                } catch (java.io.IOException ex) {
                    return null;
                }
        }
    }

    /** Jackson names what it found as "from Array value", "from Object value", ...; the parser is gone by now. */
    private static String fromMessage(String m) {
        java.util.regex.Matcher x = java.util.regex.Pattern.compile("from ([A-Za-z-]+) value").matcher(m == null ? "" : m);
        if (!x.find()) {
            return null;
        }
        switch (x.group(1)) {
            case "Array":
                return "a list";
            case "Object":
                return "a mapping";
            case "Boolean":
                return "true or false";
            case "Floating-point":
                return "a number with a fraction";
            case "Integer":
                return "a whole number";
            default:
                return "text";
        }
    }

    /** The YAML syntax error behind a Jackson exception, if that is what it is. */
    static org.yaml.snakeyaml.error.MarkedYAMLException yamlError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof org.yaml.snakeyaml.error.MarkedYAMLException y) {
                return y;
            }
        }
        return null;
    }

    /** "line 3, column 7: invalid YAML: mapping values are not allowed here". */
    static String syntax(org.yaml.snakeyaml.error.MarkedYAMLException y) {
        org.yaml.snakeyaml.error.Mark at = y.getProblemMark() != null ? y.getProblemMark() : y.getContextMark();
        String where = at == null ? "" : "line " + (at.getLine() + 1) + ", column " + (at.getColumn() + 1) + ": ";
        String problem = y.getProblem() != null ? y.getProblem() : firstLine(y.getContext());
        return where + "invalid YAML: " + problem;
    }

    /** A JSON/YAML parse error without a SnakeYAML mark. */
    static String syntax(JsonParseException e) {
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 1 ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": ";
        return where + "invalid YAML: " + firstLine(e.getOriginalMessage());
    }

    static String firstLine(String m) {
        return m == null ? "" : m.lines().findFirst().orElse(m);
    }
}
