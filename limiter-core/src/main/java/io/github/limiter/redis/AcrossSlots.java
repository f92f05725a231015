package io.github.limiter.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

import io.github.limiter.Decision;
import io.github.limiter.LimitRequest;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/**
 * On Redis Cluster, limits whose keys fall in different slots cannot share one script. Each slot's
 * limits are first checked without writing; only if every enforced limit allows the call is it
 * counted, slot by slot. A slot whose limits refuse is run for real, so that its bans start, and the
 * others are left alone: a rejected call is still counted by none. Between the check and the count
 * another call may take the last permits; then the slots counted before it keep this call's count.
 *
 * <p>Written once over futures, so the blocking and the non-blocking limiter share it: with a
 * blocking runner every step has completed before the next is composed.
 */
final class AcrossSlots {

    /** Runs the script once for some of the requests, in a mode; answers their decisions. */
    interface Run extends BiFunction<byte[], List<Integer>, CompletableFuture<List<Decision>>> {

    }

    private final int size;

    private final List<List<Integer>> groups;

    private final Run run;

    private final Decision[] decisions;

    private AcrossSlots(int size, List<List<Integer>> groups, Run run) {
        this.size = size;
        this.groups = groups;
        this.run = run;
        this.decisions = new Decision[size];
    }

    /** Indexes of the requests, grouped by the Cluster slot of their keys, in order of first use. */
    static List<List<Integer>> slotGroups(String[] stateKeys) {
        Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
        for (int i = 0; i < stateKeys.length; i++) {
            bySlot.computeIfAbsent(ClusterSlotHashUtil.calculateSlot(stateKeys[i]), key -> new ArrayList<>()).add(i);
        }
        return new ArrayList<>(bySlot.values());
    }

    /** Decides the requests, slot group by slot group; answers one decision per request, in order. */
    static CompletableFuture<List<Decision>> decide(List<LimitRequest> requests, List<List<Integer>> groups,
            Run run) {
        return new AcrossSlots(requests.size(), groups, run).checkThenAcquire();
    }

    private CompletableFuture<List<Decision>> checkThenAcquire() {
        List<CompletableFuture<List<Decision>>> checks = new ArrayList<>(this.groups.size());
        for (List<Integer> group : this.groups) {
            checks.add(this.run.apply(DecisionScript.CHECK, group));
        }
        return CompletableFuture.allOf(checks.toArray(CompletableFuture[]::new)).thenCompose(checked -> {
            List<List<Integer>> refusing = new ArrayList<>();
            for (int g = 0; g < this.groups.size(); g++) {
                if (record(this.groups.get(g), checks.get(g).join())) {
                    refusing.add(this.groups.get(g));
                }
            }
            boolean allow = refusing.isEmpty();
            return acquire(allow ? this.groups : refusing, 0, allow);
        });
    }

    /** Counts group after group; stops at the first that refuses after all. */
    private CompletableFuture<List<Decision>> acquire(List<List<Integer>> toAcquire, int next, boolean allow) {
        if (next == toAcquire.size()) {
            return CompletableFuture.completedFuture(result(allow));
        }
        List<Integer> group = toAcquire.get(next);
        return this.run.apply(DecisionScript.ACQUIRE, group).thenCompose(decided -> {
            boolean refused = record(group, decided);
            if (allow && refused) {
                // lost the race: the call is refused after all
                return CompletableFuture.completedFuture(result(false));
            }
            return acquire(toAcquire, next + 1, allow);
        });
    }

    /** Keeps a group's decisions; answers whether one of its enforced limits refuses. */
    private boolean record(List<Integer> group, List<Decision> decided) {
        boolean refuses = false;
        for (int i = 0; i < group.size(); i++) {
            this.decisions[group.get(i)] = decided.get(i);
            refuses |= BindingDecisions.refuses(decided.get(i));
        }
        return refuses;
    }

    private List<Decision> result(boolean allow) {
        List<Decision> result = new ArrayList<>(this.size);
        for (Decision decision : this.decisions) {
            result.add(allow ? decision : BindingDecisions.notCounted(decision));
        }
        return result;
    }

}
