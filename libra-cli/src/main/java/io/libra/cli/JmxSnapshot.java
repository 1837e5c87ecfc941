package io.libra.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * The snapshot inside an HBase master's {@code /jmx} answer: the servlet (HBase's JSONBean) lists
 * the matching beans as {@code {"beans": [{"name": ..., "Snapshot": "<libra.snapshot/v1 JSON>", ...}]}}.
 */
final class JmxSnapshot {
    static final String FIELD = "Snapshot";

    private JmxSnapshot() {
    }

    /** The snapshot's bytes, or one line saying why the answer holds none. */
    static byte[] unwrap(URI uri, byte[] answer) {
        JsonNode beans = beans(uri, answer);
        JsonNode bean = null;
        for (JsonNode b : beans) {
            if (CaptureSource.BEAN.equals(b.path("name").asText())) {
                bean = b;
            }
        }
        if (bean == null) {
            throw new IllegalStateException(uri + ": no " + CaptureSource.BEAN + " bean: this master does not run Libra's balancer "
                    + "(hbase.master.loadbalancer.class), or it is a standby master: capture from the active one");
        }
        JsonNode snapshot = bean.path(FIELD);
        if (!snapshot.isTextual()) {
            throw new BadInputException("libra: " + uri + ": the bean has no " + FIELD + " text (an older libra-hbase jar on the master?)");
        }
        if (snapshot.asText().isEmpty()) {
            throw new IllegalStateException(uri + ": no snapshot yet: the balancer has not run since the master started "
                    + "(run balancer 'dry_run' in the hbase shell, or wait for the balancer chore)");
        }
        return snapshot.asText().getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode beans(URI uri, byte[] answer) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(answer);
        } catch (IOException e) {
            root = null;
        }
        if (root == null || !root.path("beans").isArray()) {
            throw new BadInputException("libra: " + uri + ": not a /jmx answer (no \"beans\" list): "
                    + "is this the master's info port (default " + CaptureSource.MASTER_INFO_PORT + ")?");
        }
        return root.path("beans");
    }
}
