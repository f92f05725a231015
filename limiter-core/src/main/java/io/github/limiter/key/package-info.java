/**
 * SpEL key resolution: expressions parsed once per method, evaluated per call. Internal API; it
 * may change in any release.
 */
@NullMarked
package io.github.limiter.key;

import org.jspecify.annotations.NullMarked;
