package io.github.limiter.consumer.kotlin

import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.runApplication

/**
 * A small Kotlin application that uses limiter as a user's would: one dependency, `suspend`
 * functions limited with `@RateLimit` in a WebFlux controller and a service, keys read from the
 * functions' parameters by their Kotlin names.
 */
@SpringBootApplication
class KotlinConsumerApplication

fun main(args: Array<String>) {
    runApplication<KotlinConsumerApplication>(*args)
}
