/**
 * The local refusals (the memory of refused keys on one instance), and the subscription to
 * invalidations, the messages by which instances tell each other that a key's refusal ended after
 * an unban, a reset or a cost given back. Internal: imported only by the limiter, the starters and
 * the test kits, and left out of the Javadoc.
 */
@NullMarked
package io.github.limiter.internal.refusals;

import org.jspecify.annotations.NullMarked;
