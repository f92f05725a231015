/**
 * The {@code ratelimits} actuator endpoint.
 */
@NullMarked
package io.github.limiter.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
