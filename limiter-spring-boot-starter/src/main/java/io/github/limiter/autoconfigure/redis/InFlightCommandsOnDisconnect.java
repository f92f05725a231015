package io.github.limiter.autoconfigure.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Fails the commands in flight on a connection of the limiter's when it drops, rather than letting
 * Lettuce send them again once it has reconnected: a decision Redis ran whose reply the drop lost
 * would be counted twice. Lettuce does the same itself from 6.7 on, for a connection that rejects
 * commands while disconnected as the limiter's does (redis/lettuce#2894); before, it fails only
 * those of a connection that never reconnects. Spring Boot 3.5 manages Lettuce 6.6.
 *
 * <p>Runs the application's own customizer, if any, first.
 */
final class InFlightCommandsOnDisconnect implements NettyCustomizer {

    private final NettyCustomizer application;

    InFlightCommandsOnDisconnect() {
        this(new NettyCustomizer() {
        });
    }

    InFlightCommandsOnDisconnect(NettyCustomizer application) {
        this.application = application;
    }

    @Override
    public void afterBootstrapInitialized(Bootstrap bootstrap) {
        this.application.afterBootstrapInitialized(bootstrap);
    }

    @Override
    public void afterChannelInitialized(Channel channel) {
        this.application.afterChannelInitialized(channel);
        // first in the pipeline: told of the drop before Lettuce's CommandHandler queues its commands again
        channel.pipeline().addFirst(new ChannelInboundHandlerAdapter() {

            @Override
            public void channelInactive(ChannelHandlerContext context) throws Exception {
                CommandHandler commands = context.pipeline().get(CommandHandler.class);
                if (commands != null) {
                    RedisException disconnected = new RedisException("Connection disconnected");
                    commands.drainQueue().forEach((command) -> command.completeExceptionally(disconnected));
                }
                super.channelInactive(context);
            }

        });
    }

}
