package io.github.limiter.autoconfigure.web;

import java.nio.file.Path;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import io.netty.channel.EventLoop;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.http.server.HttpServerRequest;

import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Commits the responses of a Reactor Netty server on their connection's event loop, and ends the
 * handling of each request there.
 *
 * <p>A limited handler goes on where its decision completes: on the Redis client's thread, or a
 * timer's. Its response was then committed from that thread, and Reactor Netty finished the
 * request's operations in a task of their own on the event loop, after the write. A client that had
 * read the answer could send its next request on the kept-alive connection in between: Reactor
 * Netty then buffers it ("Buffering keep-alive request, previous ops not yet terminated"), and if
 * it answers that request at once (a refusal from memory, a handler that does not wait), it stops
 * reading the connection (Reactor Netty 1.2 and 1.3; issue 4361 of reactor-netty): the client waits
 * for its next answer until it gives up. Committed on the event loop, the write and the end of the
 * request's operations happen in one task, with no read between them. A response committed on the
 * event loop already, as most are, is left as it is.
 */
final class EventLoopCommitWebFilter implements WebFilter, Ordered {

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        EventLoop loop = eventLoopOf(exchange);
        if (loop == null) {
            return chain.filter(exchange);
        }
        Scheduler onLoop = Schedulers.fromExecutor(onLoop(loop));
        ServerHttpResponse response = exchange.getResponse();
        // a file is still sent with zero copy
        ServerWebExchange committingOnLoop = exchange.mutate()
            .response((response instanceof ZeroCopyHttpOutputMessage) ? new ZeroCopyCommitOnLoop(response, onLoop)
                    : new CommitOnLoop(response, onLoop))
            .build();
        // what follows the chain (the web handler's own commit, an error handler's answer) runs there too
        return chain.filter(committingOnLoop).publishOn(onLoop);
    }

    @Override
    public int getOrder() {
        // before RateLimitHeadersWebFilter, so that everything after it commits through its response
        return Ordered.HIGHEST_PRECEDENCE + 99;
    }

    private static @Nullable EventLoop eventLoopOf(ServerWebExchange exchange) {
        Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(exchange.getRequest());
        if (!(nativeRequest instanceof HttpServerRequest request)) {
            return null;
        }
        EventLoop[] loop = new EventLoop[1];
        request.withConnection(connection -> loop[0] = connection.channel().eventLoop());
        return loop[0];
    }

    /** Runs a task at once on the event loop, and hands it to the event loop from any other thread. */
    private static Executor onLoop(EventLoop loop) {
        return task -> {
            if (loop.inEventLoop()) {
                task.run();
            }
            else {
                loop.execute(task);
            }
        };
    }

    /** A response whose commit starts on the event loop. */
    private static class CommitOnLoop extends ServerHttpResponseDecorator {

        private final Scheduler onLoop;

        CommitOnLoop(ServerHttpResponse delegate, Scheduler onLoop) {
            super(delegate);
            this.onLoop = onLoop;
        }

        @Override
        public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
            return onLoop(() -> super.writeWith(body));
        }

        @Override
        public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
            return onLoop(() -> super.writeAndFlushWith(body));
        }

        @Override
        public Mono<Void> setComplete() {
            return onLoop(super::setComplete);
        }

        final Mono<Void> onLoop(Supplier<Mono<Void>> commit) {
            return Mono.defer(commit).subscribeOn(this.onLoop);
        }

    }

    /** The same, for a response that can send a file with zero copy. */
    private static final class ZeroCopyCommitOnLoop extends CommitOnLoop implements ZeroCopyHttpOutputMessage {

        ZeroCopyCommitOnLoop(ServerHttpResponse delegate, Scheduler onLoop) {
            super(delegate, onLoop);
        }

        @Override
        public Mono<Void> writeWith(Path file, long position, long count) {
            return onLoop(() -> ((ZeroCopyHttpOutputMessage) getDelegate()).writeWith(file, position, count));
        }

    }

}
