package io.libra.cassandra;

import io.libra.cassandra.config.ConfigException;
import io.libra.cassandra.config.ConfigLoader;
import io.libra.cassandra.config.SidecarConfig;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/** {@code java -jar libra-cassandra.jar --config sidecar.yaml}. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path config = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) {
                config = Path.of(args[++i]);
            } else if (args[i].equals("--help") || args[i].equals("-h")) {
                System.out.println("usage: java -jar libra-cassandra.jar --config sidecar.yaml");
                return;
            } else {
                System.err.println("libra-cassandra: unknown argument " + args[i] + " (usage: --config sidecar.yaml)");
                System.exit(2);
            }
        }
        if (config == null) {
            System.err.println("libra-cassandra: --config: required (usage: --config sidecar.yaml)");
            System.exit(2);
        }
        SidecarConfig c;
        try {
            c = ConfigLoader.load(config);
        } catch (ConfigException e) {
            System.err.println("libra-cassandra: " + e.getMessage());
            System.exit(2);
            return;
        }
        Sidecar sidecar;
        try {
            sidecar = new Sidecar(c).start();
        } catch (IllegalStateException e) {
            System.err.println("libra-cassandra: " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            sidecar.close();
            done.countDown();
        }, "libra-shutdown"));
        done.await();
    }
}
