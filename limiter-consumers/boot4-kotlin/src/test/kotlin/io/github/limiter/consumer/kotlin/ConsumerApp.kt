package io.github.limiter.consumer.kotlin

import io.github.limiter.test.FixedWindows
import io.github.limiter.test.LocalHttp
import io.github.limiter.test.RedisServerExtension
import org.assertj.core.api.Assertions.assertThat
import reactor.blockhound.BlockHound
import org.springframework.boot.Banner
import org.springframework.boot.WebApplicationType
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.data.redis.connection.RedisConnectionFactory
import java.time.Duration
import java.util.UUID

/**
 * Starts the application as its own main would, on the tests' Redis, with a key prefix of its own.
 * Redis gets 2 s to decide rather than 100 ms: these tests are about how calls are decided, and a
 * first decision on a loaded machine can take longer (it is then allowed, without headers).
 */
fun startApplication(type: WebApplicationType, vararg sources: Class<*> = arrayOf(KotlinConsumerApplication::class.java)):
        ConfigurableApplicationContext {
    val redis = RedisServerExtension.redis()
    return SpringApplicationBuilder(*sources)
        .web(type)
        .bannerMode(Banner.Mode.OFF)
        .logStartupInfo(false)
        .run(
            "--server.port=0",
            "--spring.data.redis.host=${redis.host()}",
            "--spring.data.redis.port=${redis.port()}",
            "--limiter.key-prefix=kotlin-${UUID.randomUUID()}:",
            "--limiter.redis.timeout=2s",
        )
}

/**
 * A `suspend` function with an `actualCost` counts only its failed calls: five imports succeed
 * and leave no count, three fail, and the next import is refused. The same on WebFlux and MVC.
 */
fun assertOnlyFailedImportsCount(context: ConfigurableApplicationContext, http: LocalHttp) {
    // the limit is a fixed window of an hour of Redis's clock: none ends within the calls
    FixedWindows.awaitRoom(context.getBean(RedisConnectionFactory::class.java), Duration.ofHours(1),
        Duration.ofSeconds(30))
    for (i in 1..5) {
        assertThat(http.get("/imports/fay?file=f$i").body()).`as`("import %d", i).isEqualTo("Imported f$i for fay")
    }
    for (i in 1..3) {
        assertThat(http.get("/imports/fay").statusCode()).`as`("failed import %d", i).isEqualTo(400)
    }
    assertThat(http.get("/imports/fay?file=f6").statusCode()).`as`("past three failed imports").isEqualTo(429)
}

/**
 * Installs BlockHound for the rest of the JVM's life: each blocking call on a non-blocking thread
 * is recorded in [blockingCalls], with its thread and stack, rather than thrown where it happened.
 */
fun installBlockHound(blockingCalls: MutableList<String>) {
    BlockHound.install({ builder ->
        builder.blockingMethodCallback { method ->
            blockingCalls.add("${Thread.currentThread().name}: $method\n\tat "
                    + Throwable().stackTrace.joinToString("\n\tat "))
        }
    })
}
