package io.github.limiter.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.github.limiter.sample.admin.AlertLog;
import io.github.limiter.sample.admin.BanRegistry;
import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of the app share one Redis: the tiers fire once in total, not once per instance.
 */
@WithRedis
class TwoInstancesIntegrationTests {

    @Test
    void thirtyInterleavedReadsByOneUserRaiseOneAlertAndOneBanInTotal(EmbeddedRedis redis) {
        String[] properties = { "--server.port=0", "--spring.main.banner-mode=off",
                "--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
                "--limiter.key-prefix=two-" + UUID.randomUUID() + ":" };
        try (ConfigurableApplicationContext first = SpringApplication.run(SampleApplication.class, properties);
                ConfigurableApplicationContext second = SpringApplication.run(SampleApplication.class, properties)) {
            List<ConfigurableApplicationContext> instances = List.of(first, second);
            List<SampleClient> clients = new ArrayList<>();
            List<String> tokens = new ArrayList<>();
            for (ConfigurableApplicationContext instance : instances) {
                SampleClient client = new SampleClient(((WebServerApplicationContext) instance).getWebServer().getPort());
                clients.add(client);
                tokens.add(client.token("alice"));
            }
            int answered = 0;
            for (int read = 0; read < 30; read++) {
                int instance = read % 2;
                if (clients.get(instance).read(tokens.get(instance), 1) == 200) {
                    answered++;
                }
            }
            assertThat(answered).isEqualTo(20);
            assertThat(instances.stream().mapToInt(i -> i.getBean(AlertLog.class).alerts().size()).sum())
                .as("alerts across both instances").isEqualTo(1);
            assertThat(instances.stream().mapToInt(i -> i.getBean(BanRegistry.class).active().size()).sum())
                .as("bans across both instances").isEqualTo(1);
        }
    }

}
