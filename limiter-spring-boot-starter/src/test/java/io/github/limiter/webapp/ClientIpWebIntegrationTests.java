package io.github.limiter.webapp;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.github.limiter.Algorithm;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.test.LocalHttp;
import io.github.limiter.test.RedisServerExtension;
import io.github.limiter.test.WithRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code #clientIp} over HTTP, in Spring MVC on Tomcat and Spring WebFlux on Reactor Netty: the
 * client's address as the server resolved it, which a forged {@code X-Forwarded-For} does not
 * change unless the server is told to trust it; an IPv6 address stands for its /64. With
 * {@code limiter.web.trusted-proxies}, the same on both: the first untrusted address from the right. Sliding logs,
 * so that no window ends between a test's requests.
 */
@WithRedis
class ClientIpWebIntegrationTests {

    private static final StringRedisTemplate redis = RedisServerExtension.template();

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void aForgedForwardingHeaderDoesNotChangeTheKey(WebApplicationType type) {
        String prefix = "client-ip-" + UUID.randomUUID() + ":";
        // on Tomcat: forwarded headers read, from no trusted proxy; on Reactor Netty: not read
        String[] forwarding = (type == WebApplicationType.SERVLET)
                ? new String[] { "--server.forward-headers-strategy=native",
                        "--server.tomcat.remoteip.internal-proxies=" }
                : new String[0];
        try (ConfigurableApplicationContext app = start(type, prefix, forwarding)) {
            for (String forged : new String[] { "198.51.100.1", "198.51.100.2", "198.51.100.3" }) {
                assertThat(get(app, "/mono", forged).statusCode()).isEqualTo(200);
                // a blocking method on a WebFlux request has no address: a blank key, answered 400
                assertThat(get(app, "/plain", forged).statusCode())
                    .isEqualTo((type == WebApplicationType.SERVLET) ? 200 : 400);
            }
            Set<String> keys = redis.keys(prefix + "{ip.*");
            assertThat(keys).as("one key per limit, the peer's address")
                .containsAll((type == WebApplicationType.SERVLET) ? Set.of(prefix + "{ip.plain:127.0.0.1}",
                        prefix + "{ip.mono:127.0.0.1}") : Set.of(prefix + "{ip.mono:127.0.0.1}"))
                .noneMatch((key) -> key.contains("198.51.100."));
            assertThat(get(app, "/mono", "198.51.100.4").headers().firstValue("X-RateLimit-Remaining"))
                .as("the forged addresses shared the peer's count").hasValue("6");
        }
    }

    @Test
    void theAddressATrustedProxyForwardsIsTheKeyAndAnIpv6OneStandsForItsSlash64() {
        String prefix = "client-ip-" + UUID.randomUUID() + ":";
        try (ConfigurableApplicationContext app = start(WebApplicationType.SERVLET, prefix,
                "--server.forward-headers-strategy=native",
                "--server.tomcat.remoteip.internal-proxies=127\\.0\\.0\\.1")) {
            assertThat(get(app, "/plain", "203.0.113.5").statusCode()).isEqualTo(200);
            assertThat(get(app, "/plain", "2001:db8:1:2:aaaa:bbbb:cccc:dddd").statusCode()).isEqualTo(200);
            HttpResponse<String> sameNetwork = get(app, "/plain", "2001:db8:1:2::1");
            assertThat(sameNetwork.headers().firstValue("X-RateLimit-Remaining"))
                .as("another address of the same /64 shares its count").hasValue("8");
            assertThat(redis.keys(prefix + "{ip.*")).containsExactlyInAnyOrder(prefix + "{ip.plain:203.0.113.5}",
                    prefix + "{ip.plain:2001:db8:1:2:0:0:0:0/64}");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WebApplicationType.class, names = { "SERVLET", "REACTIVE" })
    void withTrustedProxiesTheClientIsTheFirstUntrustedAddressFromTheRight(WebApplicationType type) {
        String prefix = "client-ip-" + UUID.randomUUID() + ":";
        // the test's own address is the trusted proxy; the server reads no forwarded header itself
        try (ConfigurableApplicationContext app = start(type, prefix, "--limiter.web.trusted-proxies=127.0.0.1")) {
            for (String forged : new String[] { "198.51.100.1", "198.51.100.2" }) {
                assertThat(get(app, "/mono", forged + ", 203.0.113.7").statusCode()).isEqualTo(200);
            }
            assertThat(get(app, "/mono", "203.0.113.8").statusCode()).isEqualTo(200);
            assertThat(send(app, "/mono", Map.of("Forwarded", "for=198.51.100.3, for=\"[2001:db8:1:2::9]:4711\"",
                    "X-Forwarded-For", "203.0.113.7")).statusCode()).isEqualTo(200);
            assertThat(redis.keys(prefix + "{ip.*")).as("forged leftmost addresses change nothing")
                .containsExactlyInAnyOrder(prefix + "{ip.mono:203.0.113.7}", prefix + "{ip.mono:203.0.113.8}",
                        prefix + "{ip.mono:2001:db8:1:2:0:0:0:0/64}");
        }
        String untrusted = "client-ip-" + UUID.randomUUID() + ":";
        try (ConfigurableApplicationContext app = start(type, untrusted, "--limiter.web.trusted-proxies=10.0.0.0/8")) {
            assertThat(get(app, "/mono", "203.0.113.7").statusCode()).isEqualTo(200);
            assertThat(redis.keys(untrusted + "{ip.*")).as("a peer that is no trusted proxy is the client")
                .containsExactly(untrusted + "{ip.mono:127.0.0.1}");
        }
    }

    @Test
    void reactorNettysNativeStrategyTakesTheFirstForwardedAddressFromAnyClient() {
        // what docs/operations.md warns of: Reactor Netty trusts every client's X-Forwarded-For
        String prefix = "client-ip-" + UUID.randomUUID() + ":";
        try (ConfigurableApplicationContext app = start(WebApplicationType.REACTIVE, prefix,
                "--server.forward-headers-strategy=native")) {
            assertThat(get(app, "/mono", "198.51.100.7, 127.0.0.1").statusCode()).isEqualTo(200);
            assertThat(redis.keys(prefix + "{ip.*")).containsExactly(prefix + "{ip.mono:198.51.100.7}");
        }
    }

    private static ConfigurableApplicationContext start(WebApplicationType type, String prefix, String... more) {
        String[] args = { "--server.port=0", "--spring.data.redis.host=" + RedisServerExtension.redis().host(),
                "--spring.data.redis.port=" + RedisServerExtension.redis().port(), "--limiter.key-prefix=" + prefix };
        String[] all = new String[args.length + more.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return new SpringApplicationBuilder(ClientIpApp.class).web(type)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run(all);
    }

    private static HttpResponse<String> get(ConfigurableApplicationContext app, String path, String forwardedFor) {
        return send(app, path, Map.of("X-Forwarded-For", forwardedFor));
    }

    private static HttpResponse<String> send(ConfigurableApplicationContext app, String path,
            Map<String, String> headers) {
        int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port", "0"));
        return new LocalHttp(port).send("GET", path, headers, null);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(ClientIpHandlers.class)
    static class ClientIpApp {

    }

    // public methods: @RateLimit applies to public methods only
    @RestController
    static class ClientIpHandlers {

        @GetMapping("/plain")
        @RateLimit(name = "ip.plain", key = "#clientIp", window = "1m", max = 10, algorithm = Algorithm.SLIDING_LOG)
        public String plain() {
            return "answer";
        }

        @GetMapping("/mono")
        @RateLimit(name = "ip.mono", key = "#clientIp", window = "1m", max = 10, algorithm = Algorithm.SLIDING_LOG)
        public Mono<String> mono() {
            return Mono.just("answer");
        }

    }

}
