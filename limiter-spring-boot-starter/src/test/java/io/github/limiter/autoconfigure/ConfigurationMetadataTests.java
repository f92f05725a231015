package io.github.limiter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.json.JsonParserFactory;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The IDE metadata the starter ships: every property described, the policies' own keys named, the
 * health indicator's switch, which no properties class carries, and the {@code ratelimits}
 * endpoint's access, read-only by default.
 */
class ConfigurationMetadataTests {

    @Test
    void describesEveryPropertyThePoliciesKeysAndTheHealthSwitch() throws IOException {
        Map<String, Object> metadata;
        try (InputStream json = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
            metadata = JsonParserFactory.getJsonParser().parseMap(new String(json.readAllBytes(), StandardCharsets.UTF_8));
        }
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> properties = (List<Map<String, Object>>) metadata.get("properties");
        assertThat(properties).filteredOn((property) -> !(property.get("description") instanceof String text)
                || text.isBlank())
            .as("properties without a description")
            .isEmpty();
        assertThat(properties).filteredOn((property) -> property.get("name").equals("management.health.limiter.enabled"))
            .singleElement()
            .satisfies((property) -> assertThat(property).containsEntry("defaultValue", true));
        // the endpoint's writes are off unless turned on: the IDE shows the default the endpoint declares
        assertThat(properties)
            .filteredOn((property) -> property.get("name").equals("management.endpoint.ratelimits.access"))
            .singleElement()
            .satisfies((property) -> assertThat(property).containsEntry("defaultValue", "read_only"));
        assertThat(properties).filteredOn((property) -> property.get("name").equals("limiter.policies"))
            .singleElement()
            .satisfies((property) -> assertThat((String) property.get("description")).contains("algorithm", "window",
                    "max", "alert-at", "ban-for", "mode", "on-failure", "calendar", "zone"));
    }

}
