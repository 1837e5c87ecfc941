package io.libra.cassandra.http;

import io.libra.cassandra.config.StartupException;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Netty HTTP/1.1 server in front of {@link Api}. Requests over {@link #MAX_BODY} bytes get a
 * one-line 413 and the connection is closed; a client that resets the connection is logged in
 * one line, never with Netty's stack trace.
 */
public final class ApiServer implements AutoCloseable {
    public static final int MAX_BODY = 64 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    private final EventLoopGroup boss = new NioEventLoopGroup(1);
    private final EventLoopGroup workers = new NioEventLoopGroup(2);
    /**
     * Requests are answered off the I/O threads: a rebalance takes the execution lease over CQL and
     * the add-node advice models the ring, and neither may stall other connections (a /metrics scrape).
     */
    private final ExecutorService answering = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "libra-api");
        t.setDaemon(true);
        return t;
    });
    private final Channel channel;

    /** Binds at once; a taken port or a bad address is a {@link StartupException} naming http.host/http.port. */
    public ApiServer(String host, int port, Api api) {
        this(host, port, null, api);
    }

    /** With TLS when {@code tls} is not null (see {@link Tls}). */
    public ApiServer(String host, int port, SslContext tls, Api api) {
        ServerBootstrap b = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(new HttpServerCodec(), new Aggregator(), new Handler(api, answering));
                    }
                });
        ChannelFuture bound = b.bind(host, port).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            Throwable cause = bound.cause();
            close(null);
            String why = cause == null || cause.getMessage() == null ? String.valueOf(cause) : cause.getMessage();
            throw new StartupException("http.port: cannot listen on " + host + ":" + port + ": " + why);
        }
        channel = bound.channel();
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        close(channel);
    }

    private void close(Channel ch) {
        if (ch != null) {
            ch.close().awaitUninterruptibly();
        }
        answering.shutdownNow();
        try {
            answering.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    static void send(ChannelHandlerContext ctx, Api.Response r, boolean keepAlive) {
        FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()),
                Unpooled.copiedBuffer(r.body(), StandardCharsets.UTF_8));
        resp.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType());
        HttpUtil.setContentLength(resp, resp.content().readableBytes());
        HttpUtil.setKeepAlive(resp, keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(resp);
        } else {
            ctx.writeAndFlush(resp).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Netty's aggregator answers 413 with an empty body; ours says what the limit is. */
    private static final class Aggregator extends HttpObjectAggregator {
        Aggregator() {
            super(MAX_BODY);
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            Api.Response r = Api.Response.error(413, "request body too large: the limit is " + MAX_BODY + " bytes");
            send(ctx, r, false);
            oversized.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
    }

    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Api api;
        private final ExecutorService answering;

        Handler(Api api, ExecutorService answering) {
            this.api = api;
            this.answering = answering;
        }

        /** Reads the request on the I/O thread and answers it on {@code answering} (a stopping server: closed). */
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            if (!req.decoderResult().isSuccess()) {
                send(ctx, Api.Response.error(400, "malformed HTTP request"), false);
                return;
            }
            String method = req.method().name();
            String uri = req.uri();
            String auth = req.headers().get(HttpHeaderNames.AUTHORIZATION);
            byte[] body = ByteBufUtil.getBytes(req.content());
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            try {
                answering.execute(() -> send(ctx, api.handleSafely(method, uri, auth, body), keepAlive));
            } catch (RejectedExecutionException e) {
                ctx.close();
            }
        }

        /** A client that went away mid-request (or sent garbage Netty cannot decode): one line, then close. */
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("http: closing connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        }
    }
}
