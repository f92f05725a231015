package io.github.limiter.autoconfigure;

import java.time.Duration;

import io.github.limiter.OnFailure;

/**
 * The limiter's own connection to Redis, to the server the application's
 * RedisConnectionFactory points at, so that its timeout and failure handling are independent of
 * the application's other Redis use.
 *
 * @since 0.1.0
 */
public class LimiterRedisProperties {

    /**
     * Longest a decision, or any other command of the limiter, may wait for Redis; past it, the
     * call follows its on-failure setting. Lettuce's own default (60s) would let a slow Redis
     * stall every limited call.
     */
    private Duration timeout = Duration.ofMillis(100);

    /**
     * Longest the limiter waits to open a connection to Redis, the TLS and protocol handshake
     * included. Longer than the command timeout so that a loaded host still connects; calls
     * made before the first connection is open follow their on-failure setting at once.
     */
    private Duration connectTimeout = Duration.ofSeconds(2);

    /**
     * Longest wait between two attempts to reconnect after Redis went away (Lettuce's own
     * back-off grows to 30s), and between two attempts to subscribe to unbans and resets from
     * other instances. Decisions are exact again at most about this long after Redis accepts
     * connections again.
     */
    private Duration maxReconnectDelay = Duration.ofSeconds(1);

    /**
     * What limited calls do when Redis cannot decide: allow (the default: a Redis outage does
     * not take the site down, and limiter.decisions counts it as outcome "error"), deny, or local
     * (each instance enforces the limit in its own memory, so N instances allow up to N x max).
     */
    private OnFailure onFailure = OnFailure.ALLOW;

    /**
     * Share of each limit's max (and alert-at and burst) an instance allows while it decides in
     * memory (on-failure local), above 0 and at most 1: 0.25 for four instances keeps the fleet
     * near max through an outage, without lowering the limit while Redis decides.
     */
    private double localShare = 1;

    /**
     * Most commands the limiter's connection queues; more are refused at once rather than
     * waiting behind a stalled Redis.
     */
    private int requestQueueSize = 10_000;

    /**
     * Whether to refuse a Redis that may evict the limiter's keys (a maxmemory-policy other than
     * noeviction, with a maxmemory limit): such a Redis lifts bans and resets counts once it is
     * full. Found at the start, it fails the start; found later, the limiter's health is DOWN.
     * When false, it is logged once at WARN.
     */
    private boolean requireNoeviction;

    /**
     * Decisions made while another is in flight on the limiter's connection are sent together,
     * as one script call, as soon as it returns (Lettuce only).
     */
    private final Coalescing coalescing = new Coalescing();

    public Duration getTimeout() {
        return this.timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public Duration getConnectTimeout() {
        return this.connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public Duration getMaxReconnectDelay() {
        return this.maxReconnectDelay;
    }

    public void setMaxReconnectDelay(Duration maxReconnectDelay) {
        this.maxReconnectDelay = maxReconnectDelay;
    }

    public double getLocalShare() {
        return this.localShare;
    }

    public void setLocalShare(double localShare) {
        this.localShare = localShare;
    }

    public OnFailure getOnFailure() {
        return this.onFailure;
    }

    public void setOnFailure(OnFailure onFailure) {
        this.onFailure = onFailure;
    }

    public int getRequestQueueSize() {
        return this.requestQueueSize;
    }

    public void setRequestQueueSize(int requestQueueSize) {
        this.requestQueueSize = requestQueueSize;
    }

    public boolean isRequireNoeviction() {
        return this.requireNoeviction;
    }

    public void setRequireNoeviction(boolean requireNoeviction) {
        this.requireNoeviction = requireNoeviction;
    }

    public Coalescing getCoalescing() {
        return this.coalescing;
    }

    /**
     * Coalescing of concurrent decisions (group commit): a decision that finds none in flight on
     * the limiter's connection is sent at once; those made while one is in flight wait for it and
     * are then sent together, as one script call that decides each on its own, in order. Redis
     * then spends far less per decision. Applies with Lettuce; Jedis sends each decision alone.
     */
    public static class Coalescing {

        /**
         * Whether concurrent decisions are coalesced. Off, every decision is a script call of its
         * own.
         */
        private boolean enabled = true;

        /**
         * Most decisions in one script call; those beyond wait for the next call.
         */
        private int maxBatch = 64;

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getMaxBatch() {
            return this.maxBatch;
        }

        public void setMaxBatch(int maxBatch) {
            this.maxBatch = maxBatch;
        }

    }

}
