package io.github.limiter.consumer.finals

import io.github.limiter.InvalidRateLimitException
import io.github.limiter.annotation.RateLimit
import io.github.limiter.consumer.kotlin.startApplication
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowable
import org.junit.jupiter.api.Test
import org.springframework.boot.WebApplicationType
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.context.annotation.Import

/**
 * Kotlin classes and functions are final unless opened, and a proxy cannot intercept what it cannot
 * override: a limit there would never apply. The start fails instead, naming the class, the
 * function and the fix. These classes carry no Spring annotation, so the spring compiler plugin of
 * the build leaves them as written; they are in a package of their own, outside the application's
 * component scan.
 */
class FinalFunctionsTests {

    @Test
    fun aFunctionNotOpenInAnOpenClassFailsTheStart() {
        assertStartFails(WithGreetings::class.java, "io.github.limiter.consumer.finals.Greetings.greet(String)",
            "it is final, so Spring's class-based (CGLIB) proxy cannot override it")
    }

    @Test
    fun aFunctionOfAFinalClassFailsTheStart() {
        assertStartFails(WithFarewells::class.java, "io.github.limiter.consumer.finals.Farewells.bye(String)",
            "its class is final, so Spring's class-based (CGLIB) proxy cannot subclass the class")
    }

    private fun assertStartFails(configuration: Class<*>, method: String, why: String) {
        val failure = catchThrowable { startApplication(WebApplicationType.NONE, configuration).close() }
        val invalid = generateSequence(failure) { it.cause }.filterIsInstance<InvalidRateLimitException>().firstOrNull()
        assertThat(invalid).`as`("InvalidRateLimitException in %s", failure).isNotNull()
        assertThat(invalid!!.message).startsWith("Invalid @RateLimit on $method")
            .contains(why)
            .contains("mark the class and the function open, or let the kotlin-spring (or all-open) compiler plugin open them")
    }

}

open class Greetings {

    @RateLimit(key = "#user", window = "1m", max = 1)
    fun greet(user: String) = "Hello, $user"

}

class Farewells {

    @RateLimit(key = "#user", window = "1m", max = 1)
    fun bye(user: String) = "Bye, $user"

}

@SpringBootConfiguration
@EnableAutoConfiguration
@Import(Greetings::class)
class WithGreetings

@SpringBootConfiguration
@EnableAutoConfiguration
@Import(Farewells::class)
class WithFarewells
