package io.github.limiter.sample.docs;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

import io.github.limiter.Algorithm;
import io.github.limiter.CalendarWindow;
import io.github.limiter.Decision;
import io.github.limiter.OnFailure;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.RateLimitExceededException;
import io.github.limiter.RateLimiter;
import io.github.limiter.annotation.RateLimit;
import io.github.limiter.autoconfigure.endpoint.RateLimitsEndpoint;
import io.github.limiter.sample.answers.Answer;

import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.multipart.MultipartFile;

/**
 * The code of the README's and docs/' Java snippets that are not quoted from the sample app or
 * the tests: compiled with the build, and checked against the docs by
 * {@link DocumentationSnippetsTests}. Each nested class is one snippet's surroundings.
 */
final class DocumentationExamples {

    private DocumentationExamples() {
    }

    /** docs/annotation.md, costs known after the call. */
    static class Completions {

        @RateLimit(key = "#apiKey", window = "1h", max = 100_000, cost = "#request.maxTokens()",
                actualCost = "#result.usage().totalTokens()")
        public Completion complete(String apiKey, CompletionRequest request) {
            return new Completion(new Usage(Math.min(request.maxTokens(), 42)));
        }

    }

    record CompletionRequest(String prompt, int maxTokens) {
    }

    record Completion(Usage usage) {
    }

    record Usage(int totalTokens) {
    }

    static class Scans {

        @RateLimit(key = "#userId", window = "1d", max = 100, actualCost = "#exception == null ? 1 : 0")
        public String recognize(String userId, byte[] image) {
            return "text";
        }

    }

    /** The snippet that the drift test of {@link DocumentationSnippetsTests} finds. */
    static class Answers {

        @RateLimit(key = "#userId", window = "60s", max = 20)
        public Answer answer(long questionId, String userId) {
            return new Answer(questionId, "?", "for " + userId);
        }

    }

    /** docs/operations.md, keys by client address. */
    static class Searches {

        @RateLimit(name = "search", key = "#clientIp", window = "1m", max = 30)
        public List<String> search(String query) {
            return List.of(query);
        }

    }

    /** docs/operations.md, limits held in memory while Redis cannot decide. */
    static class Quotes {

        @RateLimit(key = "#apiKey", window = "1m", max = 100, onFailure = OnFailure.LOCAL)
        public String quote(String apiKey) {
            return apiKey;
        }

    }

    /** README.md, reacting to the tiers. */
    static class TierListeners {

        @EventListener
        void onAlert(RateLimitAlertEvent event) {
        }

        @EventListener
        void onBan(RateLimitBanEvent event) {
        }

    }

    /** README.md, deciding in code. */
    static class Exports {

        private final RateLimiter rateLimiter;

        Exports(RateLimiter rateLimiter) {
            this.rateLimiter = rateLimiter;
        }

        void export(String userId) {
            Decision decision = rateLimiter.tryAcquire("exports", userId, 5, Duration.ofMinutes(1));
            if (!decision.allowed()) {
                throw new RateLimitExceededException(decision);
            }
        }

    }

    /** docs/algorithms.md. */
    static class Algorithms {

        @RateLimit(key = "#userId", window = "1m", max = 20, algorithm = Algorithm.SLIDING_LOG)
        public String exact(String userId) {
            return userId;
        }

        @RateLimit(key = "#userId", window = "1s", max = 5)
        @RateLimit(key = "#userId", window = "1h", max = 1000)
        public Report search(String userId, String query) {
            return new Report(query);
        }

        @RateLimit(key = "#userId", window = "1m", max = 100, cost = "#files.size()")
        public void upload(String userId, List<MultipartFile> files) {
        }

        @RateLimit(key = "#client", algorithm = Algorithm.TOKEN_BUCKET, max = 10, window = "1s", burst = 100)
        public String partnerCall(String client) {
            return client;
        }

        @RateLimit(name = "partner-api", key = "'partner'", window = "1s", max = 100, maxWait = "2s")
        public String quote(String symbol) {
            return symbol;
        }

        record Report(String query) {
        }

    }

    /** docs/annotation.md, the opening example. */
    static class AnswerController {

        @GetMapping("/questions/{questionId}/answer")
        @RateLimit(key = "#userId", window = "60s", max = 20)
        public Answer answer(@PathVariable long questionId, @RequestParam String userId) {
            return new Answer(questionId, "?", "for " + userId);
        }

    }

    /** docs/observability.md, securing the endpoint. */
    static class EndpointSecurity {

        @Bean
        SecurityFilterChain securityFilterChain(HttpSecurity http) {
            http.authorizeHttpRequests((requests) -> requests
                .requestMatchers(EndpointRequest.to(HealthEndpoint.class)).permitAll()
                .requestMatchers(EndpointRequest.to(RateLimitsEndpoint.class)).hasRole("ADMIN")
                .requestMatchers(EndpointRequest.toAnyEndpoint()).hasRole("ADMIN")
                // ... the application's own rules
                .anyRequest().authenticated());
            return http.build();
        }

    }

    /** docs/observability.md, a fallback. */
    static class Fallbacks {

        @RateLimit(key = "#user", window = "1m", max = 1, fallback = "busy")
        public String answer(String user) {
            return "answer for " + user;
        }

        String busy(String user, RateLimitExceededException ex) {
            return "busy: " + user;
        }

    }

    /** docs/plans.md, a policy per plan. */
    static class PlanReads {

        @RateLimit(name = "reads", policy = "#{#user.plan}", key = "#user.id")
        public String read(Customer user) {
            return user.id();
        }

        record Customer(String id, String plan) {
        }

    }

    /** docs/tiers.md, the tiers on the annotation. */
    static class Tiers {

        @RateLimit(key = "#userId", window = "60s", max = 20, alertAt = 10, banFor = "15m")
        public String read(String userId) {
            return userId;
        }

    }

    /** docs/calendar.md, calendar quotas. */
    static class Quotas {

        @RateLimit(key = "#apiKey", max = 10_000, calendar = CalendarWindow.MONTH, zone = "Europe/Berlin")
        public String report(String apiKey) {
            return apiKey;
        }

        @RateLimit(key = "#customer.id()", max = 100, calendar = CalendarWindow.DAY, zone = "#customer.zone()")
        public String export(Customer customer) {
            return customer.id();
        }

        @RateLimit(key = "#apiKey", policy = "monthly")
        public String search(String apiKey) {
            return apiKey;
        }

        record Customer(String id, ZoneId zone) {
        }

    }

}
