package io.github.limiter.consumer.kotlin

import io.github.limiter.RateLimitExceededException
import io.github.limiter.annotation.RateLimit
import kotlinx.coroutines.delay
import org.springframework.http.HttpStatus
import org.springframework.stereotype.Service
import org.springframework.web.server.ResponseStatusException

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

    /**
     * Three failed imports per user an hour: a successful one gives its permit back
     * (`actualCost`), a failed one keeps it, settled once the function has returned or thrown.
     */
    @RateLimit(name = "imports", key = "#user", window = "1h", max = 3, actualCost = "#exception == null ? 0 : 1")
    suspend fun import(user: String, file: String): String {
        delay(1)
        if (file.isBlank()) {
            throw ResponseStatusException(HttpStatus.BAD_REQUEST, "An empty file cannot be imported")
        }
        return "Imported $file for $user"
    }

    /**
     * A partner's API that takes one call per 400 ms from all our instances: a call over it waits
     * its turn, without holding a thread, for up to three seconds.
     */
    @RateLimit(name = "partner", key = "'partner'", window = "400ms", max = 1, maxWait = "3s")
    suspend fun callPartner(call: Int): String {
        delay(1)
        return "Partner call $call"
    }

    suspend fun digestLater(user: String, refusal: RateLimitExceededException): String {
        delay(1)
        return "No digest for $user for ${refusal.retryAfter.toSeconds()} s"
    }

}
