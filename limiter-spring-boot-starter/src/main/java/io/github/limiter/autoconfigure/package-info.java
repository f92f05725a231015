/**
 * Spring Boot auto-configuration for limiter: the entry that imports the limiter's configurations,
 * the advisor's, and the {@code limiter.*} properties users bind.
 */
@NullMarked
package io.github.limiter.autoconfigure;

import org.jspecify.annotations.NullMarked;
