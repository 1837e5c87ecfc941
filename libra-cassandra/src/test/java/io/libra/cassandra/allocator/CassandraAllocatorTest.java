package io.libra.cassandra.allocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sidecar's side of running Cassandra's allocator: which directories are Cassandra
 * installations, how the child JVM's answer is read, and that a failed run is one line. The
 * allocator itself runs on real Cassandra jars in VnodeRingIT (the node libraries exist there).
 */
class CassandraAllocatorTest {
    @TempDir
    Path dir;

    @Test
    void eachJoiningNodesTokensAreReadSortedInBootstrapOrder() {
        String out = "12:00:00.000 [main] DEBUG o.a.c.d.t.TokenAllocation - Replicated node load\nTOKENS 30,-10,20\nTOKENS 5,-7,1\n";
        assertThat(CassandraAllocator.parse(out, 0, 2)).containsExactly(List.of(-10L, 20L, 30L), List.of(-7L, 1L, 5L));
    }

    @Test
    void aFailedRunIsItsCauseInOneLine() {
        String out = "Error: Unable to initialize main class io.libra.cassandra.allocator.TokenAllocatorMain\n"
                + "Caused by: java.lang.NoClassDefFoundError: org/apache/cassandra/dht/IPartitioner\n"
                + "\tat java.base/java.lang.Class.forName0(Native Method)\n";
        assertThatThrownBy(() -> CassandraAllocator.parse(out, 1, 1)).isInstanceOf(CassandraAllocator.AllocatorException.class)
                .hasMessage("Cassandra's allocator failed (exit 1): Caused by: java.lang.NoClassDefFoundError: "
                        + "org/apache/cassandra/dht/IPartitioner");
        assertThatThrownBy(() -> CassandraAllocator.parse("TOKENS 1\n", 0, 2))
                .hasMessage("Cassandra's allocator failed (exit 0): TOKENS 1");
    }

    @Test
    void aCassandraInstallationHasItsJarInItOrInItsLib() throws IOException {
        assertThat(CassandraAllocator.problem(dir.resolve("none"))).contains("not a directory: " + dir.resolve("none"));
        assertThat(CassandraAllocator.problem(dir)).get().asString()
                .startsWith("no Cassandra jar (apache-cassandra-*.jar or cassandra-all-*.jar) in " + dir);
        Files.createDirectories(dir.resolve("lib"));
        Files.createFile(dir.resolve("lib/apache-cassandra-5.0.6.jar"));
        assertThat(CassandraAllocator.problem(dir)).as("the tarball's layout").isEmpty();
        Path pkg = Files.createDirectories(dir.resolve("usr-share-cassandra"));
        Files.createFile(pkg.resolve("apache-cassandra-5.0.6.jar"));
        assertThat(CassandraAllocator.problem(pkg)).as("the Debian package's layout").isEmpty();
    }

    /** A real child JVM on a "Cassandra" jar holding no Cassandra: the run fails, and says why in one line. */
    @Test
    void jarsWithoutCassandraFailInOneLineNamingTheMissingClass() throws IOException {
        Files.createDirectories(dir.resolve("lib"));
        try (OutputStream f = Files.newOutputStream(dir.resolve("lib/cassandra-all-0.jar"));
             JarOutputStream jar = new JarOutputStream(f)) {
            jar.finish();
        }
        CassandraAllocator allocator = new CassandraAllocator(dir, CassandraAllocator.currentJava(), Duration.ofSeconds(60));
        assertThatThrownBy(() -> allocator.allocate(3, 4, 1, List.of(List.of(1L, 2L, 3L, 4L))))
                .isInstanceOf(CassandraAllocator.AllocatorException.class)
                .hasMessageStartingWith("Cassandra's allocator failed (exit 1): Caused by: java.lang.NoClassDefFoundError: "
                        + "org/apache/cassandra/");
    }

    /** A run past its timeout is killed, and the answer says so in one line. */
    @Test
    void aRunPastItsTimeoutIsKilled() throws Exception {
        Files.createFile(dir.resolve("apache-cassandra-5.0.6.jar"));
        Path java = dir.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho $$ > " + dir.resolve("pid") + "\nexec sleep 60\n");
        java.toFile().setExecutable(true);
        CassandraAllocator allocator = new CassandraAllocator(dir, java, Duration.ofSeconds(1));
        assertThatThrownBy(() -> allocator.allocate(3, 1, 1, List.of(List.of(1L))))
                .isInstanceOf(CassandraAllocator.AllocatorException.class)
                .hasMessage("Cassandra's allocator did not finish in 1 s");
        long pid = Long.parseLong(Files.readString(dir.resolve("pid")).strip());
        Optional<ProcessHandle> child = ProcessHandle.of(pid);
        assertThat(child.map(ProcessHandle::isAlive).orElse(false)).as("the child is gone").isFalse();
    }
}
