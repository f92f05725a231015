package io.github.limiter.autoconfigure.web;

import java.net.URI;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.json.JsonParserFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import static org.assertj.core.api.Assertions.assertThat;

class ProblemJsonTests {

    @Test
    void writesEveryMemberAsJsonThatParsesBackToTheSameValues() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.TOO_MANY_REQUESTS,
                "quote \" backslash \\ newline \n tab \t bell \u0007 separator \u2028 é");
        problem.setType(URI.create("https://example.com/problems/rate-limit-exceeded"));
        problem.setTitle("Rate limit exceeded");
        problem.setInstance(URI.create("/api/items"));
        problem.setProperty("limitId", "api");
        problem.setProperty("limit", 3L);
        problem.setProperty("retryAfter", 60L);
        problem.setProperty("banned", false);
        Map<String, Object> parsed = JsonParserFactory.getJsonParser().parseMap(ProblemJson.of(problem));
        assertThat(parsed).containsEntry("type", "https://example.com/problems/rate-limit-exceeded")
            .containsEntry("title", "Rate limit exceeded")
            .containsEntry("status", 429)
            .containsEntry("detail", problem.getDetail())
            .containsEntry("instance", "/api/items")
            .containsEntry("limitId", "api")
            .containsEntry("limit", 3)
            .containsEntry("retryAfter", 60)
            .containsEntry("banned", false)
            .hasSize(9);
        assertThat(ProblemJson.of(problem)).doesNotContain("\n", "\u0007", "\u2028");
    }

    @Test
    void leavesOutWhatIsNotSet() {
        ProblemDetail problem = ProblemDetail.forStatus(HttpStatus.BAD_REQUEST);
        problem.setType(URI.create("https://example.com/problems/blank-key"));
        // the title is the status's phrase unless set, as Spring's own serialization writes it
        assertThat(ProblemJson.of(problem)).isEqualTo(
                "{\"type\":\"https://example.com/problems/blank-key\",\"title\":\"Bad Request\",\"status\":400}");
    }

}
