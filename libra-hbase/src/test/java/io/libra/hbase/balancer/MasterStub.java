package io.libra.hbase.balancer;

import java.lang.reflect.Proxy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.master.MasterServices;

/**
 * The smallest {@link MasterServices} a balancer runs against outside a master: it answers the
 * configuration and the master's name, and null/false/0 to everything else (no assignment
 * manager, so the balancers plan on the assignment they are given).
 */
final class MasterStub {
    private MasterStub() {
    }

    /**
     * A master on {@code conf}; unless the test chose an {@code hbase.rootdir}, a fresh one under
     * target/, so no test reads the history another test (or run) saved.
     */
    static MasterServices of(Configuration conf) {
        String root = conf.getRaw(org.apache.hadoop.hbase.HConstants.HBASE_DIR);
        if (root == null || root.contains("${hbase.tmp.dir}")) {
            conf.set(org.apache.hadoop.hbase.HConstants.HBASE_DIR, freshRootDir());
        }
        ServerName master = ServerName.valueOf("master", 16000, 1L);
        return (MasterServices) Proxy.newProxyInstance(MasterStub.class.getClassLoader(),
                new Class<?>[] {MasterServices.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getConfiguration":
                            return conf;
                        case "getServerName":
                            return master;
                        case "toString":
                            return "MasterStub";
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        default:
                            return defaultValue(method.getReturnType());
                    }
                });
    }

    static String freshRootDir() {
        try {
            java.nio.file.Path dir = java.nio.file.Path.of("target", "rootdirs");
            java.nio.file.Files.createDirectories(dir);
            return java.nio.file.Files.createTempDirectory(dir, "hbase").toAbsolutePath().toUri().toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Object defaultValue(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == double.class) {
            return 0.0;
        }
        if (type == float.class) {
            return 0f;
        }
        return null;
    }
}
