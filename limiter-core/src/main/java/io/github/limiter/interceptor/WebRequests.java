package io.github.limiter.interceptor;

import java.util.function.Supplier;

import io.github.limiter.RateLimitListener;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * What the web request a call is made in gives the call, as the Spring Boot starter's web support
 * puts it there: a request attribute in Spring MVC, found through the request's thread; an entry of
 * the subscriber's Reactor context in Spring WebFlux. The value of {@code #clientIp}, the client's
 * address ({@link RateLimitAdvisor#CLIENT_IP_ATTRIBUTE}), which a reactive method's keys are
 * resolved within ({@link #within}); and the request's listener of decisions
 * ({@link RateLimitAdvisor#CALL_LISTENER_ATTRIBUTE}). {@code null} outside a web request.
 */
final class WebRequests {

    private static final boolean SPRING_WEB = ClassUtils.isPresent(
            "org.springframework.web.context.request.RequestContextHolder", WebRequests.class.getClassLoader());

    // the address of the reactive request whose keys are being resolved on this thread, if any
    private static final ThreadLocal<String> resolving = new ThreadLocal<>();

    private WebRequests() {
    }

    /** The listener the Spring MVC request being served on this thread has for its calls' decisions. */
    static @Nullable RateLimitListener callListener() {
        return SPRING_WEB ? FromRequest.callListener() : null;
    }

    /** The value of {@code #clientIp}: the address of the request the call is made in, or {@code null}. */
    static @Nullable String current() {
        String within = resolving.get();
        if (within != null) {
            return within;
        }
        return SPRING_WEB ? FromRequest.current() : null;
    }

    /**
     * Resolves keys with the client's address a reactive subscriber's context holds; without one
     * (a reactive result of a Spring MVC handler, subscribed on the request's thread), as ever.
     */
    static <T> T within(@Nullable String address, Supplier<T> resolve) {
        if (address == null) {
            return resolve.get();
        }
        String before = resolving.get();
        resolving.set(address);
        try {
            return resolve.get();
        }
        finally {
            if (before != null) {
                resolving.set(before);
            }
            else {
                resolving.remove();
            }
        }
    }

    /** Only loaded with Spring's web support on the classpath. */
    private static final class FromRequest {

        static @Nullable String current() {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            return (attributes != null && attributes.getAttribute(RateLimitAdvisor.CLIENT_IP_ATTRIBUTE,
                    RequestAttributes.SCOPE_REQUEST) instanceof String address) ? address : null;
        }

        static @Nullable RateLimitListener callListener() {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            return (attributes != null && attributes.getAttribute(RateLimitAdvisor.CALL_LISTENER_ATTRIBUTE,
                    RequestAttributes.SCOPE_REQUEST) instanceof RateLimitListener listener) ? listener : null;
        }

    }

}
