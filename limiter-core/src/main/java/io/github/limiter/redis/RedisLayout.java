package io.github.limiter.redis;

import io.github.limiter.internal.events.RecentEvents;

/**
 * Everything the limiter names in Redis, under the application's key prefix, declared once: what
 * the Java side builds and what the scripts' headers document ({@code RedisLayoutTests} checks the
 * two against each other). A change to any of it that data already in Redis, or another instance
 * of an older version, would misread, gives the layout a new {@link #VERSION}.
 *
 * <table>
 * <caption>Keys</caption>
 * <tr><th>key</th><th>holds</th></tr>
 * <tr><td>{@code <prefix>{<limit-id>:<key>}}</td><td>a key's state under a limit (its counts, log or
 * bucket); {@code <prefix>{<limit-id>}} when the key is empty</td></tr>
 * <tr><td>the state key and {@code :ban}</td><td>present while the key is banned</td></tr>
 * <tr><td>the state key and {@code :shadow-ban}</td><td>the same for a shadow limit's would-be ban</td></tr>
 * <tr><td>the state key and {@code :alert}</td><td>present once the window's alert has fired</td></tr>
 * <tr><td>{@code <prefix>events:{<limit-id>}}</td><td>a limit's recent alerts and bans, newest
 * first, one {@link RecentEvents} record each</td></tr>
 * <tr><td>{@code <prefix>policy-overrides}</td><td>the policy overrides, a hash of
 * {@code <policy>/<field>} to whole numbers, and {@code ~written}, the count of changes it has
 * taken</td></tr>
 * </table>
 *
 * <table>
 * <caption>Channels, one per kind of message</caption>
 * <tr><th>channel</th><th>message</th></tr>
 * <tr><td>{@code <prefix>local-refusals}</td><td>an invalidation: a state key that was unbanned or
 * reset, whose remembered refusal every instance invalidates</td></tr>
 * <tr><td>{@code <prefix>policy-changes}</td><td>the policy overrides changed: every instance reads
 * them again</td></tr>
 * </table>
 */
final class RedisLayout {

    /** The layout's version: 1, the first released. */
    static final int VERSION = 1;

    /** What the ban key adds to the state key. */
    static final String BAN = ":ban";

    /** What a shadow limit's ban key adds to the state key. */
    static final String SHADOW_BAN = ":shadow-ban";

    /** What the alert key adds to the state key. */
    static final String ALERT = ":alert";

    private static final String EVENTS = "events:";

    private static final String POLICY_OVERRIDES = "policy-overrides";

    // the local refusals' channel: its name on the wire predates the word invalidation
    private static final String INVALIDATION_CHANNEL = "local-refusals";

    private static final String POLICY_CHANGES_CHANNEL = "policy-changes";

    private RedisLayout() {
    }

    /** A limit's list of recent events. */
    static String events(String prefix, String limitId) {
        return prefix + EVENTS + '{' + limitId + '}';
    }

    /** The hash of policy overrides. */
    static String policyOverrides(String prefix) {
        return prefix + POLICY_OVERRIDES;
    }

    /** The channel of invalidations: state keys whose remembered refusals end on every instance. */
    static String invalidationChannel(String prefix) {
        return prefix + INVALIDATION_CHANNEL;
    }

    /** The channel on which a change of the policy overrides is announced. */
    static String policyChangesChannel(String prefix) {
        return prefix + POLICY_CHANGES_CHANNEL;
    }

}
