package io.github.limiter.consumer.kotlin

import io.github.limiter.RateLimitExceededException
import io.github.limiter.test.FixedWindows
import io.github.limiter.test.LocalHttp
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.reactor.mono
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.MethodOrderer
import org.junit.jupiter.api.Order
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestMethodOrder
import reactor.blockhound.BlockHound
import reactor.core.publisher.Flux
import reactor.core.publisher.Mono
import reactor.core.scheduler.Schedulers
import org.springframework.boot.WebApplicationType
import org.springframework.context.ConfigurableApplicationContext
import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList

/**
 * The Kotlin application on WebFlux, over real HTTP and a real Redis: its `suspend` functions are
 * limited by keys read from their parameters, answered 429 past the limit, with the rate-limit
 * headers on allowed answers, and decided without blocking: [BlockHound] watches every non-blocking
 * thread (the web server's, Lettuce's, Reactor's) and records any blocking call.
 *
 * Runs in a JVM of its own (the build gives each test class one), since BlockHound instruments
 * the JDK for the rest of the JVM's life.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation::class)
class WebFluxSuspendFunctionsIntegrationTests {

    companion object {

        private val blockingCalls = CopyOnWriteArrayList<String>()

        private lateinit var context: ConfigurableApplicationContext

        private lateinit var http: LocalHttp

        @BeforeAll
        @JvmStatic
        fun start() {
            installBlockHound(blockingCalls)
            // nothing loaded ahead, as a user's test would not: the starter initialises at start
            // what Spring's proxies load on a suspend function's first call
            context = startApplication(WebApplicationType.REACTIVE)
            http = LocalHttp(context.environment.getProperty("local.server.port")!!.toInt())
        }

        @AfterAll
        @JvmStatic
        fun stop() {
            context.close()
        }

    }

    @Test
    @Order(0)
    fun blockHoundRecordsABlockingCallOnANonBlockingThread() {
        Mono.delay(Duration.ofMillis(1)).map { Thread.sleep(1) }.block()
        assertThat(blockingCalls).anySatisfy { assertThat(it).contains("sleep") }
        blockingCalls.clear()
    }

    @Test
    @Order(1)
    fun aSuspendHandlerIsLimitedByItsParameterWithHeadersThen429() {
        val first = http.get("/quotes/ann")
        assertThat(first.statusCode()).isEqualTo(200)
        assertThat(first.body()).isEqualTo("A quote for ann")
        assertThat(first.headers().firstValue("RateLimit-Policy")).hasValue("\"quotes\";q=2;w=60")
        assertThat(first.headers().firstValue("X-RateLimit-Remaining")).hasValue("1")
        assertThat(http.get("/quotes/ann").headers().firstValue("X-RateLimit-Remaining")).hasValue("0")
        val refused = http.get("/quotes/ann")
        assertThat(refused.statusCode()).isEqualTo(429)
        assertThat(refused.headers().firstValue("Retry-After").map(String::toLong))
            .hasValueSatisfying { assertThat(it).isBetween(1L, 60L) }
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json")
        assertThat(refused.body()).contains("\"status\":429", "\"limitId\":\"quotes\"")
        assertThat(http.get("/quotes/bo").statusCode()).`as`("another user").isEqualTo(200)
        assertNothingBlocked()
    }

    @Test
    @Order(2)
    fun aSuspendServiceFunctionTakesTheCostItsParameterGivesAndRefusesPastIt() {
        val before = FixedWindows.secondsLeft(Duration.ofMinutes(1))
        val allowed = http.get("/reports/cy?pages=3")
        val after = FixedWindows.secondsLeft(Duration.ofMinutes(1))
        assertThat(allowed.body()).isEqualTo("3 pages for cy")
        // the window is the minute of Redis's clock: what is left of it
        assertThat(allowed.headers().firstValue("RateLimit")).hasValueSatisfying {
            assertThat(it).matches("\"reports\";r=2;t=\\d+")
            assertThat(it.substringAfter("t=").toLong()).isBetween(after, before)
        }
        assertThat(http.get("/reports/cy?pages=3").statusCode()).isEqualTo(429)
        assertThat(http.get("/reports/cy?pages=2").body()).isEqualTo("2 pages for cy")
        assertNothingBlocked()
    }

    @Test
    @Order(3)
    fun aSuspendFunctionPastItsLimitCallsItsSuspendFallback() {
        assertThat(http.get("/digests/dee").body()).isEqualTo("Digest for dee")
        val before = FixedWindows.secondsLeft(Duration.ofMinutes(1))
        val fallback = http.get("/digests/dee")
        val after = FixedWindows.secondsLeft(Duration.ofMinutes(1))
        assertThat(fallback.statusCode()).isEqualTo(200)
        assertThat(fallback.body()).matches("No digest for dee for \\d+ s")
        assertThat(fallback.body().filter(Char::isDigit).toLong()).isBetween(after - 1, before)
        assertNothingBlocked()
    }

    @Test
    @Order(4)
    fun aRefusedCallFromAnyCoroutineThrowsRateLimitExceededException() {
        val reports = context.getBean(ReportService::class.java)
        assertThat(runBlocking { reports.generate(ReportRequest("eve", 5)) }).isEqualTo("5 pages for eve")
        assertThatExceptionOfType(RateLimitExceededException::class.java)
            .isThrownBy { runBlocking { reports.generate(ReportRequest("eve", 1)) } }
            .satisfies({ refusal ->
                assertThat(refusal.limitId).isEqualTo("reports")
                assertThat(refusal.key).isEqualTo("eve")
            })
    }

    @Test
    @Order(5)
    fun aSuspendFunctionWithAnActualCostCountsOnlyItsFailedCalls() {
        assertOnlyFailedImportsCount(context, http)
        assertNothingBlocked()
    }

    @Test
    @Order(6)
    fun aSuspendFunctionOverItsLimitWaitsForRoomWithoutBlocking() {
        val reports = context.getBean(ReportService::class.java)
        val start = System.nanoTime()
        // each call starts on a non-blocking thread, which BlockHound watches
        val answers = Flux.range(0, 3)
            .concatMap { call ->
                mono(Dispatchers.Unconfined) { reports.callPartner(call) }.subscribeOn(Schedulers.parallel())
            }
            .collectList()
            .block(Duration.ofSeconds(10))
        assertThat(answers).containsExactly("Partner call 0", "Partner call 1", "Partner call 2")
        // one call a 400 ms window: the three took three windows, waiting for two to end
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(400))
        assertNothingBlocked()
    }

    private fun assertNothingBlocked() {
        assertThat(blockingCalls).`as`("blocking calls on non-blocking threads").isEmpty()
    }

}
