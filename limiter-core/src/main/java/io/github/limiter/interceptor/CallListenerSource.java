package io.github.limiter.interceptor;

import io.github.limiter.RateLimitListener;

import org.jspecify.annotations.Nullable;

/**
 * Gives a listener for the decisions of one {@code @RateLimit} call, asked on the thread that makes
 * the call. For code that answers the call and must hear its decisions wherever they complete, such
 * as the starter's Spring MVC support, which puts them in the response's rate-limit headers.
 * <p>A method returning a {@code CompletionStage} or a reactive type is decided without blocking:
 * its decision completes on another thread, usually the Redis client's, where nothing tells which
 * request the call serves. The {@link RateLimitAdvisor} asks every bean of this type, on the calling
 * thread, for such methods only; the listeners they give are told about that call's decisions after
 * the {@link RateLimitListener} beans. A method returning a plain value is decided on its own
 * thread, where the {@link RateLimitListener} beans can find the request themselves.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface CallListenerSource {

    /**
     * Returns a listener for the decisions of the call being made on this thread.
     * @return the listener, or {@code null} if this call has nothing to tell (such as a call made
     * outside a web request)
     */
    @Nullable RateLimitListener listenerForCurrentCall();

}
