/**
 * Micrometer meters for limiter's decisions.
 */
@NullMarked
package io.github.limiter.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
