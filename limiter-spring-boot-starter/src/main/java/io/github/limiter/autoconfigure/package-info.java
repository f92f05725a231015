/**
 * Spring Boot auto-configuration for limiter.
 */
@NullMarked
package io.github.limiter.autoconfigure;

import org.jspecify.annotations.NullMarked;
