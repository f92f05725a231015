package io.github.limiter.consumer.kotlin

import io.github.limiter.OnFailure
import io.github.limiter.RateLimitExceededException
import io.github.limiter.annotation.RateLimit
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.reactor.mono
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import reactor.core.publisher.Flux
import reactor.core.scheduler.Schedulers
import org.springframework.boot.Banner
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.WebApplicationType
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.annotation.Import
import org.springframework.stereotype.Service
import java.net.ServerSocket
import java.time.Duration
import java.util.UUID
import java.util.concurrent.CopyOnWriteArrayList

/**
 * A `suspend` function whose limit decides locally (`onFailure = OnFailure.LOCAL`), on an
 * instance whose Redis is not there: called from coroutines on non-blocking threads, it is limited
 * in the instance's memory (max calls, then a refusal that says it was local), and nothing blocks
 * those threads: BlockHound watches them.
 *
 * Runs in a JVM of its own (the build gives each test class one), since BlockHound instruments
 * the JDK for the rest of the JVM's life.
 */
class LocalSuspendFunctionsIntegrationTests {

    private val blockingCalls = CopyOnWriteArrayList<String>()

    @Test
    fun whileRedisIsDownASuspendFunctionIsLimitedInMemoryWithoutBlocking() {
        installBlockHound(blockingCalls)
        val nothingListens = ServerSocket(0).use { it.localPort }
        val down = SpringApplicationBuilder(LocalQuotesApplication::class.java)
            .web(WebApplicationType.NONE)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .run(
                "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=$nothingListens",
                "--limiter.redis.timeout=200ms",
                "--limiter.key-prefix=kotlin-local-${UUID.randomUUID()}:",
            )
        try {
            val quotes = down.getBean(LocalQuotes::class.java)
            // each call starts on a non-blocking thread, which BlockHound watches
            val answers = Flux.range(0, 3)
                .concatMap {
                    mono(Dispatchers.Unconfined) {
                        try {
                            quotes.quote("gus")
                        }
                        catch (refusal: RateLimitExceededException) {
                            "refused, local: ${refusal.decision.local()}, failure: ${refusal.isFailure}"
                        }
                    }.subscribeOn(Schedulers.parallel())
                }
                .collectList()
                .block(Duration.ofSeconds(10))
            assertThat(answers).containsExactly("A quote for gus", "A quote for gus",
                "refused, local: true, failure: false")
        }
        finally {
            down.close()
        }
        assertThat(blockingCalls).`as`("blocking calls on non-blocking threads").isEmpty()
    }

}

@SpringBootConfiguration
@EnableAutoConfiguration
@Import(LocalQuotes::class)
class LocalQuotesApplication

/** Two quotes per user a minute, held in the instance's memory while Redis cannot decide. */
@Service
class LocalQuotes {

    @RateLimit(name = "local-quotes", key = "#user", window = "1m", max = 2, onFailure = [OnFailure.LOCAL])
    suspend fun quote(user: String): String {
        delay(1)
        return "A quote for $user"
    }

}
