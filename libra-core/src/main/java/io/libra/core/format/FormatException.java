package io.libra.core.format;

/**
 * A snapshot or plan document that cannot be accepted. The message is the one line users see:
 * {@code FILE: json.path: reason}, e.g.
 * {@code snapshot.json: regions[17].readOps: must be a finite number >= 0, got -3}.
 * The path is {@code $} when the whole document is at fault (empty file, not JSON).
 */
public final class FormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** Path used when the fault is the document as a whole. */
    public static final String ROOT = "$";

    private final String source;
    private final String jsonPath;
    private final String reason;

    public FormatException(String source, String jsonPath, String reason) {
        super(source + ": " + jsonPath + ": " + reason, null, false, false);
        this.source = source;
        this.jsonPath = jsonPath;
        this.reason = reason;
    }

    /** The file (or other source name) the document came from. */
    public String source() {
        return source;
    }

    /** Where in the document: {@code regions[17].readOps}, or {@code $} for the whole document. */
    public String jsonPath() {
        return jsonPath;
    }

    public String reason() {
        return reason;
    }
}
