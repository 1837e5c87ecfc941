package io.libra.it.cassandra;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Cassandra 5.0's own token allocator ({@code allocate_tokens_for_local_replication_factor}), run
 * offline in a JDK 17 JVM of the node's libraries (cassandra-all stays off the test's classpath),
 * on a ring given as address → tokens: the tokens a node joining at {@code joining} would take.
 */
final class CassandraAllocator {
    private static final String MAIN = "allocator/TokenAllocatorMain.java";

    private CassandraAllocator() {
    }

    static List<Long> tokens(Ring ring, int rf, int numTokens, String joining, Map<String, List<Long>> members,
                             Path dir) throws IOException, InterruptedException {
        Path source = dir.resolve("TokenAllocatorMain.java");
        try (InputStream in = CassandraAllocator.class.getClassLoader().getResourceAsStream(MAIN)) {
            Files.write(source, in.readAllBytes());
        }
        List<String> cmd = new ArrayList<>(List.of(ring.javaHome().resolve("bin/java").toString(), "-Xmx256m",
                "-Djava.net.preferIPv4Stack=true", "-cp", ring.lib().toAbsolutePath() + "/*", source.toString(),
                Integer.toString(rf), Integer.toString(numTokens), joining));
        members.forEach((address, tokens) -> cmd.add(address + "="
                + tokens.stream().map(String::valueOf).collect(Collectors.joining(","))));
        Path log = dir.resolve("allocator.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("Cassandra's allocator did not finish in 2 min: " + log);
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        String line = out.lines().filter(l -> l.startsWith("TOKENS ")).findFirst()
                .orElseThrow(() -> new IllegalStateException("Cassandra's allocator failed (exit " + p.exitValue() + "): " + out));
        return Arrays.stream(line.substring("TOKENS ".length()).split(",")).map(Long::parseLong).sorted().toList();
    }
}
