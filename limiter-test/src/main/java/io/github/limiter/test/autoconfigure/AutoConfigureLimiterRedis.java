package io.github.limiter.test.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Runs the annotated Spring test's application on a real Redis: one {@code redis-server} process
 * per test JVM, started the first time a test context asks for it, on a free port of
 * {@code 127.0.0.1}, and stopped when the JVM exits. Nothing needs to be installed, and no Docker:
 * the executable comes bundled in the {@code embedded-redis} library. The system property
 * {@code limiter.test.redis-server} (or the environment variable {@code LIMITER_TEST_REDIS_SERVER})
 * names another executable to run instead, such as an installed {@code /usr/bin/redis-server}.
 *
 * <p>The server reaches the application as a {@code DataRedisConnectionDetails} bean
 * ({@code RedisConnectionDetails} on Spring Boot 3.5), which takes precedence over any
 * {@code spring.data.redis.host}, {@code port} or {@code url}: the application's
 * connection factory, the limiter's own connection, and everything else on Spring Boot's Redis
 * auto-configuration (Spring Session, for one) use the embedded server. Client settings such as
 * timeouts still come from {@code spring.data.redis.*}.
 *
 * <p>After each test method, every key under the application's {@code limiter.key-prefix} is deleted
 * and the limiter forgets the keys it refused from memory, so that counts, bans and alerts never
 * leak from one test into the next. Tests of one JVM share the server, so tests that run in
 * parallel need key prefixes of their own.
 *
 * <p>A decision may take 2 s ({@code limiter.redis.timeout=2s}) rather than an application's
 * 100 ms, so that a slow first decision on a loaded build machine does not let a call through
 * uncounted; any value the application or the test sets wins.
 *
 * <p>Also provides a {@link RateLimitTester} bean to exhaust, ban, inspect and reset keys.
 *
 * <pre class="code">
 * &#64;SpringBootTest
 * &#64;AutoConfigureLimiterRedis
 * class AnswerServiceTests {
 *
 *     &#64;Autowired
 *     RateLimitTester rateLimits;
 *     ...
 * }
 * </pre>
 *
 * @since 0.1.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureLimiterRedis {

}
