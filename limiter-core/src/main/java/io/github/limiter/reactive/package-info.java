/**
 * Rate-limit decisions as Reactor types, for reactive code that does not use the annotation. Needs
 * Reactor on the classpath.
 */
@NullMarked
package io.github.limiter.reactive;

import org.jspecify.annotations.NullMarked;
