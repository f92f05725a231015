/**
 * The limiter's health indicator.
 */
@NullMarked
package io.github.limiter.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
