package io.libra.hbase.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM on the deployed layout: its classpath is HBase's jars (this module's test classpath
 * without any Libra, Micrometer, Dropwizard-4, HdrHistogram or LatencyUtils jar) plus only the
 * shaded jar an operator installs.
 */
final class DeployedJvm {
    private DeployedJvm() {
    }

    private static boolean libraOrRelocated(String entry) {
        String e = entry.replace('\\', '/');
        return e.contains("/io/libra/") || e.contains("/libra-core/") || e.contains("/libra-hbase/")
                || e.contains("/io/micrometer/") || e.contains("/metrics-jmx/") || e.contains("/HdrHistogram/")
                || e.contains("/LatencyUtils/") || e.contains("/metrics-core/4.");
    }

    static String classpath() {
        List<String> cp = new ArrayList<>();
        cp.add(System.getProperty("libra.shaded.jar", "target/deployed/libra-hbase-shaded.jar"));
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!libraOrRelocated(entry)) {
                cp.add(entry);
            }
        }
        return String.join(File.pathSeparator, cp);
    }

    /**
     * Starts {@code main} there with {@code heap}, its output (both streams) to {@code log}: a file, so a
     * caller's deadline can fire where reading a pipe to its end would wait for the child.
     */
    static Process start(Class<?> main, String heap, Path log, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens",
                "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true", "-Djava.net.preferIPv4Stack=true",
                "-cp", classpath(), main.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
