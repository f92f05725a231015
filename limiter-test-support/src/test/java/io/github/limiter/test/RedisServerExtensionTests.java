package io.github.limiter.test;

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
    void stopsTheServerOnClose() {
        EmbeddedRedis own = EmbeddedRedis.start();
        assertThat(own.isRunning()).isTrue();
        own.close();
        assertThat(own.isRunning()).isFalse();
        own.close();
    }

}
