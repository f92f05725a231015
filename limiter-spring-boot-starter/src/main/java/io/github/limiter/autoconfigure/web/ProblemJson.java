package io.github.limiter.autoconfigure.web;

import java.net.URI;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

/**
 * A problem detail as the JSON of RFC 9457, written by hand: a request refused by a rule is
 * answered by a filter, before any message converter, and the same bytes must come out whichever
 * Jackson the application has (Spring Boot 3.5's Jackson 2, Spring Boot 4's Jackson 3) or none.
 * The members are those Spring's own serialization writes: {@code type}, {@code title},
 * {@code status}, {@code detail}, {@code instance}, then each property.
 */
final class ProblemJson {

    /** The content type of a problem detail. */
    static final String CONTENT_TYPE = MediaType.APPLICATION_PROBLEM_JSON_VALUE;

    private ProblemJson() {
    }

    static String of(ProblemDetail problem) {
        StringBuilder json = new StringBuilder(256).append('{');
        member(json, "type", problem.getType());
        member(json, "title", problem.getTitle());
        member(json, "status", problem.getStatus());
        member(json, "detail", problem.getDetail());
        member(json, "instance", problem.getInstance());
        Map<String, @Nullable Object> properties = problem.getProperties();
        if (properties != null) {
            properties.forEach((name, value) -> member(json, name, value));
        }
        return json.append('}').toString();
    }

    private static void member(StringBuilder json, String name, @Nullable Object value) {
        if (value == null) {
            return;
        }
        if (json.length() > 1) {
            json.append(',');
        }
        string(json, name);
        json.append(':');
        if (value instanceof Number || value instanceof Boolean) {
            json.append(value);
        }
        else {
            string(json, (value instanceof URI uri) ? uri.toString() : value.toString());
        }
    }

    private static void string(StringBuilder json, String text) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        json.append(String.format("\\u%04x", (int) c));
                    }
                    else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }

}
