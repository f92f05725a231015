package io.github.limiter.consumer.kotlin

import io.github.limiter.RateLimitExceededException
import io.github.limiter.annotation.RateLimit
import kotlinx.coroutines.delay
import org.springframework.stereotype.Service

/** What a report is asked for: its pages are what it costs. */
data class ReportRequest(val user: String, val pages: Int)

/** Limited `suspend` functions of a service, called from coroutines: the controller's, or any. */
@Service
class ReportService {

    /** Five pages per user a minute: a refused call throws [RateLimitExceededException]. */
    @RateLimit(name = "reports", key = "#request.user", cost = "#request.pages", window = "1m", max = 5)
    suspend fun generate(request: ReportRequest): String {
        delay(1)
        return "${request.pages} pages for ${request.user}"
    }

    /** One digest per user a minute; past it the fallback answers instead. */
    @RateLimit(name = "digests", key = "#user", window = "1m", max = 1, fallback = "digestLater")
    suspend fun digest(user: String): String {
        delay(1)
        return "Digest for $user"
    }

    suspend fun digestLater(user: String, refusal: RateLimitExceededException): String {
        delay(1)
        return "No digest for $user for ${refusal.retryAfter.toSeconds()} s"
    }

}
