package io.github.limiter.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A decision call waiting to be sent in a coalesced run, its caller's future, and the
 * {@link System#nanoTime()} past which it fails.
 *
 * @param call the decision call
 * @param result completed with the call's part of the run's reply, or its failure
 * @param deadline the {@link System#nanoTime()} past which the call fails
 */
record PendingCall(DecisionArguments call, CompletableFuture<List<Long>> result, long deadline) {

}
