/**
 * Parsing and validation shared by the annotation support and the Redis engine. Internal API; it
 * may change in any release.
 */
@NullMarked
package io.github.limiter.support;

import org.jspecify.annotations.NullMarked;
