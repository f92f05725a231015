package io.github.limiter.internal.refusals;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

import io.github.limiter.RateLimiter;
import org.jspecify.annotations.Nullable;

/**
 * The way for a test kit that deletes a limiter's keys in Redis itself to invalidate the refusals
 * it remembers, here and on every instance, as an unban or a reset does, whoever built the limiter
 * and without a public method on it: the Redis-backed limiter's package grants it when its class is
 * loaded, as the JDK's own packages hand each other access to what is not public.
 */
public final class Invalidators {

    private static volatile Function<RateLimiter, @Nullable Consumer<String>> access = (limiter) -> null;

    private Invalidators() {
    }

    /**
     * Sets how a limiter's invalidator is found: called once, by the Redis-backed limiter's package.
     * @param way returns a limiter's invalidator, or {@code null} for a limiter of another kind
     */
    public static void grant(Function<RateLimiter, @Nullable Consumer<String>> way) {
        access = Objects.requireNonNull(way, "way must not be null");
    }

    /**
     * Returns what invalidates a state key's remembered refusal on every instance, as an unban
     * does once it has deleted the key's state; without a local cache it does nothing.
     * @param limiter the limiter
     * @return the invalidator, whose argument is a state key ({@code <prefix>{<limit-id>:<key>}} or
     * {@code <prefix>{<limit-id>}}), or {@code null} for a limiter that is not Redis-backed
     */
    public static @Nullable Consumer<String> of(RateLimiter limiter) {
        return access.apply(limiter);
    }

}
