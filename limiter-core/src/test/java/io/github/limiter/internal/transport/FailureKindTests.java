package io.github.limiter.internal.transport;

import io.github.limiter.redis.RedisRateLimiter;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import org.junit.jupiter.api.Test;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kind of a failure, from what the clients throw, with the replies Redis 6.2 and 7.0 give (as
 * the integration tests on real servers saw them), wrapped as Spring Data Redis wraps them.
 */
class FailureKindTests {

    @Test
    void theLimitersWordsForAFailureAreItsKindsTags() throws Exception {
        List<String> documented = new ArrayList<>();
        String doc = Files.readString(Path.of("src/main/java/io/github/limiter/redis/RedisRateLimiter.java"));
        String list = doc.substring(doc.indexOf("health use:"), doc.indexOf("An error code Redis answered"));
        Matcher tag = Pattern.compile("\\{@code (\\w+)}").matcher(list);
        while (tag.find()) {
            documented.add(tag.group(1));
        }
        assertThat(documented).containsExactlyElementsOf(
                Arrays.stream(FailureKind.values()).map(FailureKind::tag).toList());
        RedisRateLimiter.Failure noPermission = RedisRateLimiter.Failure.of(new RedisSystemException("x",
                new RedisCommandExecutionException("NOPERM this user has no permissions")));
        assertThat(noPermission.kind()).isEqualTo("noperm");
        assertThat(noPermission.misconfigured()).isTrue();
        assertThat(RedisRateLimiter.Failure.of(new RedisSystemException("x",
                new RedisCommandExecutionException("OOM command not allowed"))).misconfigured()).isFalse();
    }

    @Test
    void tellsAnErrorRedisAnsweredByItsCodeAlsoInsideAScript() {
        assertThat(kind("OOM command not allowed when used memory > 'maxmemory'.")).isEqualTo(FailureKind.OOM);
        assertThat(kind("ERR Error running script (call to f_9588c9): @user_script:78: @user_script: 78: -OOM command "
                + "not allowed when used memory > 'maxmemory'.")).isEqualTo(FailureKind.OOM);
        assertThat(kind("NOPERM this user has no permissions to run the 'evalsha' command or its subcommand"))
            .isEqualTo(FailureKind.NOPERM);
        assertThat(kind("ERR Error running script (call to f_1): @user_script:3: @user_script: 3: The user executing "
                + "the script can't run this command or subcommand")).isEqualTo(FailureKind.NOPERM);
        assertThat(kind("WRONGPASS invalid username-password pair or user is disabled.")).isEqualTo(FailureKind.AUTH);
        assertThat(kind("NOAUTH Authentication required.")).isEqualTo(FailureKind.AUTH);
        assertThat(kind("READONLY You can't write against a read only replica. script: 9588c9, on @user_script:78."))
            .isEqualTo(FailureKind.READONLY);
        assertThat(kind("BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE."))
            .isEqualTo(FailureKind.BUSY);
        assertThat(kind("LOADING Redis is loading the dataset in memory")).isEqualTo(FailureKind.LOADING);
        assertThat(kind("WRONGTYPE Operation against a key holding the wrong kind of value"))
            .isEqualTo(FailureKind.WRONGTYPE);
        assertThat(kind("CLUSTERDOWN The cluster is down")).isEqualTo(FailureKind.CLUSTER);
        assertThat(kind("ERR unknown command 'EVALSHA'")).isEqualTo(FailureKind.OTHER);
    }

    @Test
    void tellsTimeoutsConnectionsAndFullQueuesByType() {
        assertThat(FailureKind.of(new QueryTimeoutException("Redis command timed out",
                new RedisCommandTimeoutException("Command timed out after 100 millisecond(s)"))))
            .isEqualTo(FailureKind.TIMEOUT);
        assertThat(FailureKind.of(new RedisConnectionFailureException("Unable to connect to Redis",
                new RedisConnectionException("Unable to connect to localhost/<unresolved>:6379",
                        new ConnectException("Connection refused")))))
            .isEqualTo(FailureKind.CONNECTION);
        assertThat(FailureKind.of(new RedisSystemException("Redis exception",
                new RedisException("Currently not connected. Commands are rejected."))))
            .isEqualTo(FailureKind.CONNECTION);
        // Lettuce fails the commands in flight on a connection that drops (a failover's old master)
        assertThat(FailureKind.of(new RedisSystemException("Redis exception",
                new RedisException("Connection disconnected"))))
            .isEqualTo(FailureKind.CONNECTION);
        assertThat(FailureKind.of(new RedisSystemException("Redis exception", new RedisException(
                "Request queue size exceeded: 1000. Commands are not accepted until the queue size drops."))))
            .isEqualTo(FailureKind.OVERLOADED);
        // a pool that has no connection left, wrapped as a connection failure
        assertThat(FailureKind.of(new RedisConnectionFailureException("Cannot get Jedis connection",
                new IllegalStateException("Could not get a resource from the pool",
                        new NoSuchElementException("Timeout waiting for idle object, borrowMaxWaitDuration=PT0.1S")))))
            .isEqualTo(FailureKind.OVERLOADED);
        assertThat(FailureKind.of(new IllegalStateException("Unexpected reply"))).isEqualTo(FailureKind.OTHER);
    }

    @Test
    void theMessageIsRedisOwnAnswerWithoutTheScriptsWrapper() {
        assertThat(FailureKind.messageOf(answered("ERR Error running script (call to f_9588c9): @user_script:78: "
                + "@user_script: 78: -OOM command not allowed when used memory > 'maxmemory'.")))
            .isEqualTo("OOM command not allowed when used memory > 'maxmemory'.");
        assertThat(FailureKind.messageOf(new QueryTimeoutException("Redis command timed out",
                new RedisCommandTimeoutException("Command timed out after 100 millisecond(s)"))))
            .isEqualTo("Command timed out after 100 millisecond(s)");
        assertThat(FailureKind.OOM.tag()).isEqualTo("oom");
    }

    private static FailureKind kind(String reply) {
        return FailureKind.of(answered(reply));
    }

    /** As Spring Data Redis hands on a Lettuce error reply. */
    private static RuntimeException answered(String reply) {
        return new RedisSystemException("Error in execution", new RedisCommandExecutionException(reply));
    }

}
