package io.github.limiter.interceptor;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * The value of {@code #clientIp}: the client's address of the web request a call is made in, as
 * the Spring Boot starter's web support puts it under {@link RateLimitAdvisor#CLIENT_IP_ATTRIBUTE}:
 * a request attribute in Spring MVC, found through the request's thread; an entry of the
 * subscriber's Reactor context in Spring WebFlux, which a reactive method's keys are resolved
 * within ({@link #within}). {@code null} outside a web request.
 */
final class ClientAddresses {

    private static final boolean SPRING_WEB = ClassUtils.isPresent(
            "org.springframework.web.context.request.RequestContextHolder", ClientAddresses.class.getClassLoader());

    // the address of the reactive request whose keys are being resolved on this thread, if any
    private static final ThreadLocal<String> resolving = new ThreadLocal<>();

    private ClientAddresses() {
    }

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

    }

}
