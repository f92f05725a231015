package io.github.limiter.consumer.kotlin

import io.github.limiter.test.FixedWindows
import io.github.limiter.test.LocalHttp
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.springframework.boot.WebApplicationType
import org.springframework.context.ConfigurableApplicationContext
import java.time.Duration

/**
 * The same application started as a Spring MVC one: Spring MVC runs the `suspend` handlers as
 * asynchronous requests, and the limiter answers them as it does on WebFlux.
 */
class MvcSuspendFunctionsIntegrationTests {

    companion object {

        private lateinit var context: ConfigurableApplicationContext

        private lateinit var http: LocalHttp

        @BeforeAll
        @JvmStatic
        fun start() {
            context = startApplication(WebApplicationType.SERVLET)
            http = LocalHttp(context.environment.getProperty("local.server.port")!!.toInt())
        }

        @AfterAll
        @JvmStatic
        fun stop() {
            context.close()
        }

    }

    @Test
    fun aSuspendHandlerIsLimitedByItsParameterWithHeadersThen429() {
        val first = http.get("/quotes/ann")
        assertThat(first.statusCode()).isEqualTo(200)
        assertThat(first.body()).isEqualTo("A quote for ann")
        assertThat(first.headers().firstValue("RateLimit-Policy")).hasValue("\"quotes\";q=2;w=60")
        assertThat(first.headers().firstValue("X-RateLimit-Remaining")).hasValue("1")
        http.get("/quotes/ann")
        val refused = http.get("/quotes/ann")
        assertThat(refused.statusCode()).isEqualTo(429)
        assertThat(refused.headers().firstValue("Retry-After")).isPresent()
        assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying {
            assertThat(it).startsWith("application/problem+json")
        }
        assertThat(refused.body()).contains("\"status\":429", "\"limitId\":\"quotes\"")
        assertThat(http.get("/quotes/bo").statusCode()).`as`("another user").isEqualTo(200)
    }

    @Test
    fun aSuspendServiceFunctionIsLimitedAndItsFallbackAnswers() {
        assertThat(http.get("/reports/cy?pages=5").body()).isEqualTo("5 pages for cy")
        assertThat(http.get("/reports/cy?pages=1").statusCode()).isEqualTo(429)
        assertThat(http.get("/digests/dee").body()).isEqualTo("Digest for dee")
        // refused until the minute of Redis's clock ends: what is left of it
        val before = FixedWindows.secondsLeft(Duration.ofMinutes(1))
        val refused = http.get("/digests/dee").body()
        val after = FixedWindows.secondsLeft(Duration.ofMinutes(1))
        assertThat(refused).matches("No digest for dee for \\d+ s")
        assertThat(refused.filter(Char::isDigit).toLong()).isBetween(after - 1, before)
    }

    @Test
    fun aSuspendFunctionWithAnActualCostCountsOnlyItsFailedCalls() {
        assertOnlyFailedImportsCount(context, http)
    }

}
