package io.libra.core.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.libra.core.model.Keys;
import java.io.IOException;
import java.util.OptionalDouble;

/**
 * Typed, validating access to a Jackson tree that reports every fault as a
 * {@link FormatException} naming the source and the JSON path. Shared by the snapshot and plan
 * codecs, and public so other readers of Libra documents (a token-move reader, for instance)
 * report faults the same way.
 *
 * <p>Paths are written {@code regions[17].readOps}; {@code path} arguments name the object a
 * field belongs to ("" for the document root).
 */
public final class JsonFields {
    /** Lenient on NaN/Infinity only so they can be rejected with a clear reason instead of a parse error. */
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            // checked as the tree is built: the parser's own detection costs a set per object
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .build();

    /** Reads one value from where a parser stands; {@link #parse} checks what follows it. */
    static final ObjectReader TREE = MAPPER.readerFor(JsonNode.class);

    private final String source;

    public JsonFields(String source) {
        this.source = source;
    }

    public String source() {
        return source;
    }

    public FormatException error(String path, String reason) {
        return new FormatException(source, path.isEmpty() ? FormatException.ROOT : path, reason);
    }

    /** Parses a whole document into an object node; empty, truncated and non-JSON text are faults. */
    public ObjectNode parse(byte[] bytes) {
        return parse(bytes, p -> object(TREE.readTree(p), ""));
    }

    /** Reads a document from a parser, which the reader may walk token by token. */
    @FunctionalInterface
    public interface DocumentReader<T> {
        T read(JsonParser p) throws IOException;
    }

    /**
     * Parses a whole document with {@code reader}. Empty, truncated and non-JSON text, duplicate
     * keys and trailing content are faults, as for {@link #parse(byte[])}.
     */
    public <T> T parse(byte[] bytes, DocumentReader<T> reader) {
        if (isBlank(bytes)) {
            throw error("", "empty file");
        }
        try (JsonParser p = MAPPER.createParser(bytes)) {
            T value = reader.read(p);
            if (p.nextToken() != null) {
                throw error("", "not valid JSON: content after the end of the document at line "
                        + p.currentLocation().getLineNr() + ", column " + p.currentLocation().getColumnNr());
            }
            return value;
        } catch (JsonEOFException e) {
            throw error("", "truncated JSON: unexpected end of input" + location(e));
        } catch (JsonProcessingException e) {
            if (String.valueOf(e.getOriginalMessage()).contains("end-of-input")) {
                throw error("", "truncated JSON: unexpected end of input" + location(e));
            }
            throw error(pathOf(e), "not valid JSON: " + reason(e.getOriginalMessage()) + location(e));
        } catch (IOException e) {
            throw error("", "cannot read: " + e.getMessage());
        }
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (!Character.isWhitespace(b) && b != (byte) 0xEF && b != (byte) 0xBB && b != (byte) 0xBF) {
                return false;
            }
        }
        return true;
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? ""
                : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    }

    /** Jackson's message, first line only and without the name of the feature that raised it. */
    private static String reason(String message) {
        String s = firstLine(message);
        int feature = s.indexOf(" for `ObjectNode`");
        return feature < 0 ? s : s.substring(0, feature);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Where the parser stood when it failed, as a JSON path ("" at the root). */
    private static String pathOf(JsonProcessingException e) {
        if (!(e.getProcessor() instanceof JsonParser)) {
            return "";
        }
        StringBuilder path = new StringBuilder();
        for (JsonStreamContext c = ((JsonParser) e.getProcessor()).getParsingContext(); c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inArray()) {
                path.insert(0, "[" + Math.max(0, c.getCurrentIndex()) + "]");
            } else if (c.getCurrentName() != null) {
                path.insert(0, "." + c.getCurrentName());
            }
        }
        return path.length() > 0 && path.charAt(0) == '.' ? path.substring(1) : path.toString();
    }

    public static String at(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    public static String at(String path, int index) {
        return path + "[" + index + "]";
    }

    public ObjectNode object(JsonNode n, String path) {
        if (n == null || !n.isObject()) {
            throw error(path, "must be a JSON object, got " + describe(n));
        }
        return (ObjectNode) n;
    }

    /** The field's node; a missing field or an explicit null is a fault. */
    public JsonNode required(ObjectNode o, String path, String field) {
        JsonNode n = o.get(field);
        if (n == null || n.isNull()) {
            throw error(at(path, field), "required field is missing");
        }
        return n;
    }

    public boolean has(ObjectNode o, String field) {
        JsonNode n = o.get(field);
        return n != null && !n.isNull();
    }

    public ObjectNode object(ObjectNode o, String path, String field) {
        return object(required(o, path, field), at(path, field));
    }

    public ArrayNode array(ObjectNode o, String path, String field) {
        JsonNode n = required(o, path, field);
        if (!n.isArray()) {
            throw error(at(path, field), "must be an array, got " + describe(n));
        }
        return (ArrayNode) n;
    }

    public String string(ObjectNode o, String path, String field) {
        JsonNode n = required(o, path, field);
        if (!n.isTextual()) {
            throw error(at(path, field), "must be a string, got " + describe(n));
        }
        return n.textValue();
    }

    public String optionalString(ObjectNode o, String path, String field, String fallback) {
        return has(o, field) ? string(o, path, field) : fallback;
    }

    /** A non-empty string naming something (node, region, table). */
    public String id(ObjectNode o, String path, String field) {
        String s = string(o, path, field);
        if (s.isEmpty()) {
            throw error(at(path, field), "must be a non-empty string");
        }
        return s;
    }

    /** A key: lowercase hex of whole bytes, "" for unbounded. */
    public String key(ObjectNode o, String path, String field) {
        return key(string(o, path, field), at(path, field));
    }

    public String key(String k, String fullPath) {
        if (!Keys.isHex(k)) {
            throw error(fullPath, "must be a lowercase hex string of whole bytes, got \"" + abbreviate(k) + "\"");
        }
        return k;
    }

    public double nonNegative(ObjectNode o, String path, String field) {
        JsonNode n = required(o, path, field);
        if (!n.isNumber() || !Double.isFinite(n.doubleValue()) || n.doubleValue() < 0) {
            throw error(at(path, field), "must be a finite number >= 0, got " + describe(n));
        }
        return n.doubleValue();
    }

    public double positive(ObjectNode o, String path, String field) {
        JsonNode n = required(o, path, field);
        if (!n.isNumber() || !Double.isFinite(n.doubleValue()) || n.doubleValue() <= 0) {
            throw error(at(path, field), "must be a finite number > 0, got " + describe(n));
        }
        return n.doubleValue();
    }

    public OptionalDouble optionalPositive(ObjectNode o, String path, String field) {
        return has(o, field) ? OptionalDouble.of(positive(o, path, field)) : OptionalDouble.empty();
    }

    public double optionalNumber(ObjectNode o, String path, String field, double fallback) {
        if (!has(o, field)) {
            return fallback;
        }
        JsonNode n = o.get(field);
        if (!n.isNumber() || !Double.isFinite(n.doubleValue())) {
            throw error(at(path, field), "must be a finite number, got " + describe(n));
        }
        return n.doubleValue();
    }

    /** A whole number >= min, or {@code fallback} when absent. */
    public int optionalInt(ObjectNode o, String path, String field, int min, int fallback) {
        if (!has(o, field)) {
            return fallback;
        }
        JsonNode n = o.get(field);
        if (!n.isIntegralNumber() || !n.canConvertToInt() || n.intValue() < min) {
            throw error(at(path, field), "must be a whole number >= " + min + ", got " + describe(n));
        }
        return n.intValue();
    }

    /** How a node looks to a user in an error line: numbers and strings as written, else their JSON type. */
    public static String describe(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        if (n.isNull()) {
            return "null";
        }
        if (n.isNumber()) {
            return n.isIntegralNumber() ? n.asText() : formatDouble(n.doubleValue());
        }
        if (n.isTextual()) {
            return "\"" + abbreviate(n.textValue()) + "\"";
        }
        if (n.isBoolean()) {
            return n.asText();
        }
        return n.isArray() ? "an array" : "an object";
    }

    static String formatDouble(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return Double.toString(d);
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
