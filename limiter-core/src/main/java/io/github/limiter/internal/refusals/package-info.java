/**
 * The memory of refused keys on one instance, and the subscription through which instances tell
 * each other to forget a key after an unban, a reset or a cost given back. Internal: imported only
 * by the limiter, the starters and the test kits, and left out of the Javadoc.
 */
@NullMarked
package io.github.limiter.internal.refusals;

import org.jspecify.annotations.NullMarked;
