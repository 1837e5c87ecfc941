package io.libra.cassandra.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/** Reads and checks the YAML config; every problem is one line naming the field. */
public final class ConfigLoader {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ConfigLoader() {
    }

    public static SidecarConfig load(Path file) {
        try {
            return check(YAML.readValue(Files.readAllBytes(file), SidecarConfig.class), file.toString());
        } catch (UnrecognizedPropertyException e) {
            throw new ConfigException(file + ": " + path(e) + ": unknown field");
        } catch (com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
            throw new ConfigException(file + ": " + path(e) + ": " + e.getOriginalMessage().lines().findFirst()
                    .orElse("wrong type").replaceAll(" \\(class [^)]*\\)", ""));
        } catch (JsonProcessingException e) {
            throw new ConfigException(file + ": " + e.getOriginalMessage().lines().findFirst().orElse("invalid YAML"));
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read: " + e.getMessage());
        }
    }

    /** "instances[0].jmx_port" from Jackson's reference chain. */
    private static String path(com.fasterxml.jackson.databind.JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (com.fasterxml.jackson.databind.JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                sb.append(sb.length() > 0 ? "." : "").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.length() == 0 ? "(top level)" : sb.toString();
    }

    public static SidecarConfig check(SidecarConfig c, String source) {
        if (c.instances == null || c.instances.isEmpty()) {
            throw new ConfigException(source + ": instances: must list at least one node");
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < c.instances.size(); i++) {
            SidecarConfig.Instance in = c.instances.get(i);
            String at = source + ": instances[" + i + "]";
            if (in.id == null || in.id.isBlank()) {
                in.id = in.host + ":" + in.jmxPort;
            }
            if (!ids.add(in.id)) {
                throw new ConfigException(at + ".id: duplicate id " + in.id);
            }
            if (in.jmxPort < 1 || in.jmxPort > 65535) {
                throw new ConfigException(at + ".jmx_port: must be 1..65535, got " + in.jmxPort);
            }
            if ((in.jmxUsername == null) != (in.jmxPassword == null)) {
                throw new ConfigException(at + ": jmx_username and jmx_password go together");
            }
        }
        positive(source + ": collection.window_seconds", c.collection.windowSeconds);
        positive(source + ": collection.sampler_capacity", c.collection.samplerCapacity);
        positive(source + ": collection.subranges_per_arc", c.collection.subrangesPerArc);
        positive(source + ": planner.slices_per_subrange", c.planner.slicesPerSubrange);
        if (c.planner.lambda < 0 || c.planner.maxMoves < 0 || c.planner.maxMoveBytes < 0 || c.planner.minImprovement < 0) {
            throw new ConfigException(source + ": planner: lambda, max_moves, max_move_bytes, min_improvement must be >= 0");
        }
        if (!c.execution.onRestart.equals("resume") && !c.execution.onRestart.equals("abandon")) {
            throw new ConfigException(source + ": execution.on_restart: must be resume or abandon, got " + c.execution.onRestart);
        }
        positive(source + ": execution.stream_throughput_mib_per_sec", c.execution.streamThroughputMibPerSec);
        positive(source + ": execution.move_timeout_seconds", c.execution.moveTimeoutSeconds);
        if (c.http.port < 0 || c.http.port > 65535) {
            throw new ConfigException(source + ": http.port: must be 0..65535, got " + c.http.port);
        }
        return c;
    }

    private static void positive(String field, long v) {
        if (v <= 0) {
            throw new ConfigException(field + ": must be > 0, got " + v);
        }
    }
}
