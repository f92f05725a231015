package io.github.limiter.autoconfigure.endpoint;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.util.ClassUtils;

/**
 * Warns once, when the application has started its beans, that the {@code ratelimits} endpoint's
 * writes are open over HTTP: their access is unrestricted, the endpoint is exposed on the web (the
 * condition of this bean), and the application has no Spring Security in front of it.
 */
final class UnsecuredWritesWarning implements SmartInitializingSingleton {

    private static final Log logger = LogFactory.getLog(UnsecuredWritesWarning.class);

    /** Spring Security's filter chains: a servlet application's, and a reactive one's. */
    private static final String[] FILTER_CHAINS = { "org.springframework.security.web.SecurityFilterChain",
            "org.springframework.security.web.server.SecurityWebFilterChain" };

    private final EndpointAccessResolver access;

    private final ListableBeanFactory beans;

    UnsecuredWritesWarning(EndpointAccessResolver access, ListableBeanFactory beans) {
        this.access = access;
        this.beans = beans;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (this.access.accessFor(EndpointId.of(RateLimitsEndpoint.ID), Access.READ_ONLY) == Access.UNRESTRICTED
                && !hasSpringSecurity()) {
            logger.warn("The ratelimits endpoint's writes are open over HTTP without Spring Security in the "
                    + "application (management.endpoint.ratelimits.access=unrestricted, and the endpoint exposed on "
                    + "the web): anyone who reaches the port can lift bans, reset keys and switch bans off on every "
                    + "instance. Secure the endpoint, or set management.endpoint.ratelimits.access=read-only to turn "
                    + "its writes off");
        }
    }

    /**
     * Whether a Spring Security filter chain is a bean, not only on the classpath: Spring Boot
     * defines its own as soon as Spring Security's web support is there and switched on, while an
     * application that excludes Spring Security's auto-configuration (a common way to switch it off
     * in development) has the classes and nothing in front of the endpoint. Which requests a chain
     * lets through is the application's rules; an application that has one is trusted to have
     * written them for {@code /actuator/**}.
     */
    private boolean hasSpringSecurity() {
        ClassLoader classLoader = getClass().getClassLoader();
        for (String chain : FILTER_CHAINS) {
            if (ClassUtils.isPresent(chain, classLoader) && this.beans
                .getBeanNamesForType(ClassUtils.resolveClassName(chain, classLoader), true, false).length > 0) {
                return true;
            }
        }
        return false;
    }

}
