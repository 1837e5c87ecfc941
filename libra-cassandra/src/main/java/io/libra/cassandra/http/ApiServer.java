package io.libra.cassandra.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
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
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** Netty HTTP/1.1 server in front of {@link Api}; requests over 64 KiB are refused by the aggregator (413). */
public final class ApiServer implements AutoCloseable {
    private final EventLoopGroup boss = new NioEventLoopGroup(1);
    private final EventLoopGroup workers = new NioEventLoopGroup(2);
    private final Channel channel;

    public ApiServer(String host, int port, String authToken, Api api) throws InterruptedException {
        ServerBootstrap b = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(64 * 1024), new Handler(api));
                    }
                });
        try {
            channel = b.bind(host, port).sync().channel();
        } catch (RuntimeException e) {
            close();
            throw new IllegalStateException("http: cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close().awaitUninterruptibly();
        }
        boss.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS);
    }

    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Api api;

        Handler(Api api) {
            this.api = api;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            Api.Response r;
            if (!req.decoderResult().isSuccess()) {
                r = Api.Response.error(400, "malformed HTTP request");
            } else {
                try {
                    r = api.handle(req.method().name(), req.uri(), req.headers().get(HttpHeaderNames.AUTHORIZATION),
                            ByteBufUtil.getBytes(req.content()));
                } catch (RuntimeException e) {
                    r = Api.Response.error(500, "internal error: " + e);
                }
            }
            FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()),
                    Unpooled.copiedBuffer(r.body(), StandardCharsets.UTF_8));
            resp.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType());
            HttpUtil.setContentLength(resp, resp.content().readableBytes());
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            HttpUtil.setKeepAlive(resp, keepAlive);
            if (keepAlive) {
                ctx.writeAndFlush(resp);
            } else {
                ctx.writeAndFlush(resp).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }
}
