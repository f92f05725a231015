/**
 * What a decision's alerts and bans become besides the decision: Spring events, bounded log lines
 * (logger {@code io.github.limiter.events}), and the recent alerts and bans kept in Redis for admin
 * views. Internal: imported only by the limiter, the starters and the test kits, and left out of
 * the Javadoc.
 */
@NullMarked
package io.github.limiter.internal.events;

import org.jspecify.annotations.NullMarked;
