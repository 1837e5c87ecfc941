package io.libra.cli;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/** A real HTTP(S) server on the loopback interface answering every request with one canned response. */
final class LocalServer implements AutoCloseable {
    final List<String> paths = new CopyOnWriteArrayList<>();
    final List<String> auth = new CopyOnWriteArrayList<>();
    /** Each request's Upgrade header ("" when none). */
    final List<String> upgrade = new CopyOnWriteArrayList<>();
    volatile int status = 200;
    volatile byte[] body = new byte[0];
    volatile Map<String, String> headers = Map.of();
    /** While true, requests wait (until close) without answering: a server that hangs. */
    volatile boolean hang;

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final CountDownLatch closed = new CountDownLatch(1);

    private LocalServer(HttpServer server) {
        this.server = server;
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            paths.add(exchange.getRequestURI().toString());
            String a = exchange.getRequestHeaders().getFirst("Authorization");
            auth.add(a == null ? "" : a);
            String u = exchange.getRequestHeaders().getFirst("Upgrade");
            upgrade.add(u == null ? "" : u);
            if (hang) {
                await();
            }
            headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            byte[] b = body;
            exchange.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
            try (OutputStream o = exchange.getResponseBody()) {
                o.write(b);
            }
        });
        server.start();
    }

    static LocalServer http() throws IOException {
        return new LocalServer(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
    }

    static LocalServer https(SSLContext tls) throws IOException {
        HttpsServer s = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        s.setHttpsConfigurator(new HttpsConfigurator(tls));
        return new LocalServer(s);
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** host:port, as an operator types it. */
    String address() {
        return "127.0.0.1:" + port();
    }

    private void await() {
        try {
            closed.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        threads.shutdownNow();
    }
}
