/**
 * What the starter's auto-configurations share and no user names: the reading of the Redis
 * server's settings (its eviction policy and persistence, and its restarts), which the connection,
 * the health indicator and the meters use. Internal: left out of the Javadoc.
 */
@NullMarked
package io.github.limiter.autoconfigure.internal;

import org.jspecify.annotations.NullMarked;
