package io.github.limiter.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Holds several {@link RateLimit @RateLimit}s on one method or class; written for you when
 * {@code @RateLimit} is repeated.
 *
 * @since 0.1.0
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface RateLimits {

    /**
     * The limits; a call passes only if every one allows it.
     * @return the limits
     */
    RateLimit[] value();

}
