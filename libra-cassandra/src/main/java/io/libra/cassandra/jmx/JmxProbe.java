package io.libra.cassandra.jmx;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Asks every node over JMX at once, at startup: who answers, in which mode, with how many tokens. */
public final class JmxProbe {
    private JmxProbe() {
    }

    /** A node that answered: its OperationMode and its tokens. */
    public record Answer(String mode, int tokens) {
    }

    /** Who answered, and why the others did not (one line each). */
    public record Report(Map<String, Answer> reachable, Map<String, String> failures) {
        public static final Report NONE = new Report(Map.of(), Map.of());

        public Report {
            reachable = Map.copyOf(reachable);
            failures = Map.copyOf(failures);
        }

        /** "n1: cannot connect to JMX at 127.0.0.1:7100: Connection refused; n2: ...". */
        public String failuresLine() {
            StringBuilder sb = new StringBuilder();
            failures.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
                    sb.append(sb.length() > 0 ? "; " : "").append(e.getKey()).append(": ").append(e.getValue()));
            return sb.toString();
        }

        /** True when some node that answered has more than one token (a vnode ring). */
        public boolean vnodes() {
            return reachable.values().stream().anyMatch(a -> a.tokens() > 1);
        }
    }

    public static Report probe(List<CassandraNode> nodes) {
        List<CompletableFuture<Object>> asks = new ArrayList<>();
        for (CassandraNode n : nodes) {
            asks.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return new Answer(n.operationMode(), n.tokens().size());
                } catch (IOException | RuntimeException e) {
                    return firstLine(e);
                }
            }, JmxProbe::thread));
        }
        Map<String, Answer> ok = new LinkedHashMap<>();
        Map<String, String> failed = new LinkedHashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            Object r = asks.get(i).join();
            if (r instanceof Answer a) {
                ok.put(nodes.get(i).id(), a);
            } else {
                failed.put(nodes.get(i).id(), (String) r);
            }
        }
        return new Report(ok, failed);
    }

    /** One thread per node, so that nodes that do not answer are waited on together, not in turn. */
    private static void thread(Runnable r) {
        Thread t = new Thread(r, "libra-jmx-probe");
        t.setDaemon(true);
        t.start();
    }

    private static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }
}
