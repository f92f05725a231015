package io.github.limiter.test;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

@WithRedis
class RedisServerExtensionTests {

    @Test
    void startsOneRealRedisPerJvm(EmbeddedRedis injected) {
        assertThat(injected).isSameAs(RedisServerExtension.redis());
        assertThat(injected.isRunning()).isTrue();
        LettuceConnectionFactory factory = injected.newConnectionFactory();
        try {
            StringRedisTemplate redis = new StringRedisTemplate(factory);
            redis.opsForValue().set("test-support:ping", "pong");
            assertThat(redis.opsForValue().get("test-support:ping")).isEqualTo("pong");
            assertThat(redis.getConnectionFactory().getConnection().serverCommands().info("server"))
                .containsEntry("tcp_port", String.valueOf(injected.port()));
            redis.delete("test-support:ping");
        }
        finally {
            factory.destroy();
        }
    }

    @Test
    void runsTheExecutableChosenForThisJvm(EmbeddedRedis injected) {
        String info = injected.withCommands(commands -> commands.info("server"));
        assertThat(info).contains("executable:" + RedisBinary.get().executable().getPath() + "\r\n",
                "redis_version:" + injected.redisVersion() + "\r\n");
        assertThat(injected.redisVersion()).matches("\\d+\\.\\d+\\.\\d+");
    }

    @Test
    void acceptsDebugCommandsWhateverTheVersion(EmbeddedRedis injected) {
        // tests make Redis slow with DEBUG SLEEP, which Redis 7 refuses unless configured to allow it
        String reply = injected.withCommands(commands -> commands.dispatch(CommandType.DEBUG,
                new StatusOutput<>(StringCodec.UTF8), new CommandArgs<>(StringCodec.UTF8).add("SLEEP").add("0")));
        assertThat(reply).isEqualTo("OK");
    }

    @Test
    void stopsTheServerOnClose() {
        EmbeddedRedis own = EmbeddedRedis.start();
        assertThat(own.isRunning()).isTrue();
        own.close();
        assertThat(own.isRunning()).isFalse();
        own.close();
    }

}
