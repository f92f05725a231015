package io.github.limiter.consumer.kotlin

import io.github.limiter.annotation.RateLimit
import kotlinx.coroutines.delay
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController

/**
 * Two quotes per user a minute; the third is answered with 429 by the starter. The handlers are
 * `suspend` functions: each call is decided without blocking, as a `Mono` would be.
 */
@RestController
class QuoteController(private val reports: ReportService) {

    @GetMapping("/quotes/{user}")
    @RateLimit(name = "quotes", key = "#user", window = "1m", max = 2)
    suspend fun quote(@PathVariable user: String): String {
        delay(1) // suspends for real: the answer comes from another thread
        return "A quote for $user"
    }

    @GetMapping("/reports/{user}")
    suspend fun report(@PathVariable user: String, @RequestParam(defaultValue = "1") pages: Int): String =
        reports.generate(ReportRequest(user, pages))

    @GetMapping("/imports/{user}")
    suspend fun import(@PathVariable user: String, @RequestParam(defaultValue = "") file: String): String =
        reports.import(user, file)

    @GetMapping("/digests/{user}")
    suspend fun digest(@PathVariable user: String): String = reports.digest(user)

}
