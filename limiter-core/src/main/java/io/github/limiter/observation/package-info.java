/**
 * Each decision as a Micrometer {@link io.micrometer.observation.Observation} named
 * {@code limiter.decision}: its context, and the convention that names it and gives its key values.
 */
@NullMarked
package io.github.limiter.observation;

import org.jspecify.annotations.NullMarked;
