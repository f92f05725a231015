package io.github.limiter.autoconfigure.endpoint;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;

/**
 * Tells the {@code ratelimits} endpoint's writes who asked: while one of them runs, the
 * {@link SecurityContext} Spring Boot made for its request (over HTTP or JMX) is known on that
 * thread, and {@link #requester()} names its principal.
 *
 * <p>An operation can take the {@link SecurityContext} as a parameter instead, but Spring Boot maps
 * a {@code POST} operation with any parameter besides its selectors as one that consumes JSON: the
 * unban, a {@code POST} without a body, would then answer 415 to a request without
 * {@code Content-Type: application/json}, as {@code curl -X POST} sends it. An
 * {@link OperationInvokerAdvisor}, which Spring Boot applies to every operation it discovers, reads
 * the same context from the invocation and leaves the mapping as it is.
 */
final class RequesterAdvisor implements OperationInvokerAdvisor {

    private static final EndpointId ENDPOINT = EndpointId.of(RateLimitsEndpoint.ID);

    private static final String ANONYMOUS = "anonymous";

    private static final ThreadLocal<SecurityContext> asking = new ThreadLocal<>();

    @Override
    public OperationInvoker apply(EndpointId endpointId, OperationType operationType, OperationParameters parameters,
            OperationInvoker invoker) {
        if (operationType == OperationType.READ || !ENDPOINT.equals(endpointId)) {
            return invoker;
        }
        return (context) -> {
            asking.set(context.resolveArgument(SecurityContext.class));
            try {
                return invoker.invoke(context);
            }
            finally {
                asking.remove();
            }
        };
    }

    /**
     * Returns who asks for the write under way on this thread: the name of its request's principal
     * (Spring Security's authenticated user, or the servlet container's), or {@value #ANONYMOUS}
     * where there is none, and where the endpoint is called from code.
     */
    static String requester() {
        SecurityContext security = asking.get();
        Principal principal = (security != null) ? security.getPrincipal() : null;
        @Nullable String name = (principal != null) ? principal.getName() : null;
        return (name != null && !name.isEmpty()) ? name : ANONYMOUS;
    }

}
