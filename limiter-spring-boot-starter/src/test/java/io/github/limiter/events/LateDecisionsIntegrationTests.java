package io.github.limiter.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import io.github.limiter.Decision;
import io.github.limiter.test.Concurrency;
import io.github.limiter.test.DelayingProxy;
import io.github.limiter.test.EmbeddedRedis;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Alerts and bans that Redis decided after their call had stopped waiting for it (Redis paused, or
 * answering later than the timeout) are reported all the same: two application instances on one
 * real Redis, and every ban key and alert key Redis holds has exactly one event across the two, and
 * is counted once in {@code limiter.alerts} and {@code limiter.bans}. With Lettuce (coalesced and
 * not) and with Jedis. A decision whose connection drops before its reply is never sent again, so
 * never counted twice.
 */
@ExtendWith(OutputCaptureExtension.class)
class LateDecisionsIntegrationTests {

    /** Keys made ready before Redis stalls: each one's next call raises an alert or starts a ban. */
    private static final int KEYS = 150;

    private static final String TIMEOUT = "limiter.redis.timeout=200ms";

    private final String prefix = "late-" + UUID.randomUUID() + ":";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "lettuce", "lettuce, not coalesced", "jedis" })
    void everyAlertAndBanDecidedWhileRedisWasPausedHasExactlyOneEvent(String client) {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
                Node a = Node.start(redis.host(), redis.port(), this.prefix, properties(client));
                Node b = Node.start(redis.host(), redis.port(), this.prefix, properties(client))) {
            prepare(a, b);
            // Redis holds every client's commands for 1.5 s: each call in that time times out
            // (200 ms), and the scripts sent run when the pause ends
            redis.withCommands(commands -> commands.clientPause(1500));
            List<Node> callers = List.of(a, b, a, b);
            callDuring(Duration.ofMillis(1200), callers);
            assertEveryAlertAndBanHasExactlyOneEvent(redis, () -> true, a, b);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "lettuce", "jedis" })
    void everyAlertAndBanDecidedBehindAddedLatencyHasExactlyOneEvent(String client) {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
                DelayingProxy proxy = DelayingProxy.start(redis.host(), redis.port());
                Node slow = Node.start(proxy.host(), proxy.port(), this.prefix, properties(client));
                Node direct = Node.start(redis.host(), redis.port(), this.prefix, properties(client))) {
            prepare(slow, direct);
            // 200 ms each way: every reply to the slow instance comes 200 ms after its timeout; the
            // other instance decided half the keys' earlier calls
            proxy.delay(Duration.ofMillis(200));
            callDuring(Duration.ofMillis(1500), List.of(slow, slow, slow, slow));
            proxy.delay(Duration.ZERO);
            assertEveryAlertAndBanHasExactlyOneEvent(redis, proxy::idle, slow, direct);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "lettuce", "jedis" })
    void aDecisionWhoseConnectionDropsBeforeItsReplyIsNeverSentAgain(String client, CapturedOutput output) {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
                DelayingProxy proxy = DelayingProxy.start(redis.host(), redis.port());
                Node node = Node.start(proxy.host(), proxy.port(), this.prefix, properties(client))) {
            assertThat(Node.await(Duration.ofSeconds(5), node::decides)).as("decides").isTrue();
            // a few open connections (Jedis's pool), so that the call need not open one, which the
            // delay below would fail; the policy overrides' poll may hold one meanwhile
            Concurrency.run(4, node::decides);
            // the script reaches Redis at once, but its reply would take 2 s: the call times out
            proxy.delay(Duration.ZERO, Duration.ofSeconds(2));
            assertThat(node.call("dropped")).as("timed out").isNull();
            String state = this.prefix + "{" + Node.LIMIT_ID + ":dropped}";
            assertThat(Node.await(Duration.ofSeconds(2), () -> List.of("1").equals(redis.withCommands(commands -> commands.hvals(state)))))
                .as("Redis ran the script").isTrue();
            // the network fails before the reply comes back; the instance connects again
            proxy.dropConnections();
            proxy.delay(Duration.ZERO);
            assertThat(Node.await(Duration.ofSeconds(5), node::decides)).as("decides again").isTrue();
            Decision next = node.call("dropped");
            assertThat(next).isNotNull();
            assertThat(next.allowed()).as("counted once before, never sent again: allowed as the second call")
                .isTrue();
            List<String> count = redis.withCommands(commands -> commands.hvals(state));
            assertThat(count).as("the count in Redis").containsExactly("2");
            // the thread that waited for the reply may hear of the drop after the calls above
            assertThat(Node.await(Duration.ofSeconds(5),
                    () -> output.getOut().contains("Rate limiting got no reply to a decision whose call had timed out")))
                .as("the lost reply logged").isTrue();
        }
    }

    /** The client, and a timeout with room for a busy machine, far below the stalls. */
    private static String[] properties(String client) {
        return switch (client) {
            case "lettuce" -> new String[] { "spring.data.redis.client-type=lettuce", TIMEOUT };
            case "lettuce, not coalesced" -> new String[] { "spring.data.redis.client-type=lettuce",
                    "limiter.redis.coalescing.enabled=false", TIMEOUT };
            default -> new String[] { "spring.data.redis.client-type=jedis", TIMEOUT };
        };
    }

    /**
     * Calls each key once or twice, on either instance, from a few threads at once (so that a Jedis
     * pool holds several open connections): a key called once raises its alert with its next call,
     * a key called twice (its alert raised now) starts its ban with its next call.
     */
    private static void prepare(Node a, Node b) {
        assertThat(Node.await(Duration.ofSeconds(5), () -> a.decides() && b.decides())).as("both instances decide")
            .isTrue();
        AtomicInteger next = new AtomicInteger();
        Concurrency.run(8, () -> {
            for (int i = next.getAndIncrement(); i < KEYS; i = next.getAndIncrement()) {
                Node node = (i % 4 < 2) ? a : b;
                for (int call = 0; call <= i % 2; call++) {
                    // one that times out on a busy machine is decided late: what follows holds all the same
                    node.call(key(i));
                }
            }
        });
    }

    /** One thread per caller, each calling the next ready key once, again and again, for a while. */
    private static void callDuring(Duration duration, List<Node> callers) {
        AtomicInteger nextKey = new AtomicInteger();
        AtomicInteger nextCaller = new AtomicInteger();
        long until = System.nanoTime() + duration.toNanos();
        Concurrency.run(callers.size(), () -> {
            Node node = callers.get(nextCaller.getAndIncrement());
            while (System.nanoTime() - until < 0) {
                int key = nextKey.getAndIncrement();
                if (key >= KEYS) {
                    throw new IllegalStateException("Not enough keys made ready for the calls");
                }
                node.call(key(key));
            }
        });
    }

    /**
     * Once the stall is over, waits for the late replies: until the events agree with Redis, and
     * go on agreeing for a second with nothing in flight (a script Redis runs after a first
     * agreement would add a key before its reply adds the event), 10 s at most; then compares.
     */
    private void assertEveryAlertAndBanHasExactlyOneEvent(EmbeddedRedis redis, BooleanSupplier nothingInFlight,
            Node... nodes) {
        long[] agreeingSince = { System.nanoTime() };
        Node.await(Duration.ofSeconds(10), Duration.ofMillis(50), () -> {
            long now = System.nanoTime();
            if (!nothingInFlight.getAsBoolean() || !alertsAndBansAgree(redis, nodes)) {
                agreeingSince[0] = now;
            }
            return now - agreeingSince[0] >= Duration.ofSeconds(1).toNanos();
        });
        Map<String, Integer> banKeys = ones(keys(redis, ":ban"));
        Map<String, Integer> alertKeys = ones(keys(redis, ":alert"));
        assertThat(banKeys).as("bans in Redis").isNotEmpty();
        assertThat(merged(nodes, Node.Events::bans)).as("ban events by key, against the ban keys in Redis")
            .isEqualTo(banKeys);
        assertThat(merged(nodes, Node.Events::alerts)).as("alert events by key, against the alert keys in Redis")
            .isEqualTo(alertKeys);
        assertThat(counted(nodes, "limiter.bans")).as("limiter.bans").isEqualTo(banKeys.size());
        assertThat(counted(nodes, "limiter.alerts")).as("limiter.alerts").isEqualTo(alertKeys.size());
        // the figures of a run, for the docs
        System.out.println("In Redis: bans " + banKeys.size() + ", alerts " + alertKeys.size()
                + ", each with one event; decisions reported late: " + counted(nodes, "limiter.decisions.late"));
    }

    private boolean alertsAndBansAgree(EmbeddedRedis redis, Node... nodes) {
        return merged(nodes, Node.Events::bans).equals(ones(keys(redis, ":ban")))
                && merged(nodes, Node.Events::alerts).equals(ones(keys(redis, ":alert")));
    }

    /** The user keys whose Redis key of the given kind ({@code :ban}, {@code :alert}) exists. */
    private List<String> keys(EmbeddedRedis redis, String suffix) {
        String start = this.prefix + "{" + Node.LIMIT_ID + ":";
        String end = "}" + suffix;
        return redis.withCommands(commands -> {
            List<String> keys = new ArrayList<>();
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<String> page = commands.scan(cursor, ScanArgs.Builder.matches(start + "*" + end).limit(500));
                page.getKeys().forEach(key -> keys.add(key.substring(start.length(), key.length() - end.length())));
                cursor = page;
            }
            while (!cursor.isFinished());
            return keys;
        });
    }

    private static Map<String, Integer> ones(List<String> keys) {
        Map<String, Integer> ones = new TreeMap<>();
        keys.forEach(key -> ones.put(key, 1));
        return ones;
    }

    private static Map<String, Integer> merged(Node[] nodes, Function<Node.Events, Map<String, Integer>> events) {
        Map<String, Integer> merged = new TreeMap<>();
        for (Node node : nodes) {
            events.apply(node.events()).forEach((key, count) -> merged.merge(key, count, Integer::sum));
        }
        return merged;
    }

    private static double counted(Node[] nodes, String meter) {
        double sum = 0;
        for (Node node : nodes) {
            sum += node.counted(meter);
        }
        return sum;
    }

    private static String key(int i) {
        return "user-" + i;
    }

}
