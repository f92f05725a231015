package io.github.limiter.sample.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.github.limiter.autoconfigure.LimiterProperties;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PlaceholdersResolver;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.IgnoreTopLevelConverterNotFoundBindHandler;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.util.ClassUtils;
import org.springframework.validation.ObjectError;
import org.springframework.validation.SimpleErrors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

/**
 * Every YAML snippet of the README and docs/ configures what it says, and docs/configuration.md
 * lists every property of the starter.
 * <p>
 * Each {@code ```yaml} block is loaded as Spring Boot loads {@code application.yml} (a block that
 * is not YAML fails, named by its file and line). Its keys are then checked by who owns them:
 * <ul>
 * <li>{@code limiter.*} is bound to {@link LimiterProperties} as the application binds it: an
 * unknown key, a value that does not convert (a bad duration, an unknown enum value) or a setting
 * the properties' own validation refuses at start-up fails, naming the file, the line, the key
 * and the value;</li>
 * <li>keys under a prefix the starter declares outside {@code limiter.} in its configuration
 * metadata ({@code management.health.limiter}, {@code management.endpoint.ratelimits}) must be
 * declared there, and their values convert to the declared type;</li>
 * <li>every other key ({@code spring.*}, {@code server.*}, {@code management.endpoints.*}, owned
 * by Spring Boot) must be declared by some configuration metadata on the sample app's classpath,
 * or lie under a declared map property; its value is not checked.</li>
 * </ul>
 * A {@code ${...}} placeholder in a value is resolved against the block itself, its default
 * included; one left unresolved (an environment variable the reader supplies, say) is not
 * converted, since its value is not in the docs, but its key is still checked.
 * <p>
 * No block is an example of a wrong setting. One that is meant to be should be listed here with
 * the failure it shows and why, not skipped.
 * <p>
 * The starter's metadata is {@code META-INF/spring-configuration-metadata.json} (the one declaring
 * {@code limiter.*}) with the {@code additional-spring-configuration-metadata.json} beside it.
 * Each of its properties must have a row in the table of docs/configuration.md, a map property
 * such as {@code limiter.policies} by pattern ({@code limiter.policies.<name>.window}), and
 * each row must name one of them.
 */
class ConfigurationSnippetsTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);

    private static final Pattern TABLE_ROW = Pattern.compile("^\\| `([^`]+)` \\|", Pattern.MULTILINE);

    @Test
    void everyYamlSnippetOfTheDocsSetsDeclaredPropertiesToValidValues() throws IOException {
        Metadata metadata = Metadata.fromClasspath();
        List<String> problems = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        int snippets = 0;
        for (Path doc : docs()) {
            String text = Files.readString(doc);
            Matcher block = YAML_BLOCK.matcher(text);
            while (block.find()) {
                snippets++;
                Snippet snippet = new Snippet(ROOT.relativize(doc).toString(), lineOf(text, block.start()),
                        block.group(1));
                problems.addAll(snippet.problems(metadata));
                keys.addAll(snippet.keys());
            }
        }
        assertThat(snippets).as("YAML snippets found").isGreaterThan(8);
        assertThat(keys.stream().filter((key) -> key.startsWith("limiter."))).as("limiter keys checked")
            .hasSizeGreaterThan(15);
        assertThat(problems).as("problems in YAML snippets").isEmpty();
    }

    @Test
    void aSnippetWithAMistypedKeyOrABadValueIsReported() throws IOException {
        Snippet drifted = new Snippet("docs/drifted.md", 9, """
                limiter:
                  policies:
                    answers:
                      window: soon
                      max: 20
                      alert-after: 10
                management:
                  health:
                    limiter:
                      enable: false
                  endpoint:
                    ratelimits:
                      access: read-write
                spring:
                  data:
                    redis:
                      hots: redis.example.internal
                """);
        List<String> problems = drifted.problems(Metadata.fromClasspath());
        assertThat(problems).hasSize(5);
        assertThat(problems).anySatisfy((problem) -> assertThat(problem)
            .startsWith("docs/drifted.md:13: limiter.policies.answers.window = 'soon' does not bind"));
        assertThat(problems).anySatisfy((problem) -> assertThat(problem)
            .startsWith("docs/drifted.md:15: limiter.policies.answers.alert-after = '10' is not a property"));
        assertThat(problems).anySatisfy((problem) -> assertThat(problem)
            .startsWith("docs/drifted.md:19: management.health.limiter.enable = 'false' is not a property"));
        assertThat(problems).anySatisfy((problem) -> assertThat(problem)
            .startsWith("docs/drifted.md:22: management.endpoint.ratelimits.access = 'read-write' does not convert"));
        assertThat(problems).anySatisfy((problem) -> assertThat(problem)
            .startsWith("docs/drifted.md:26: spring.data.redis.hots = 'redis.example.internal' is declared"));
    }

    @Test
    void aSnippetTheApplicationWouldRefuseOrThatIsNotYamlIsReported() throws IOException {
        Metadata metadata = Metadata.fromClasspath();
        Snippet refused = new Snippet("docs/refused.md", 5, """
                limiter:
                  policies:
                    search:
                      window: 1m
                      max: 30
                      alert-at: 30
                """);
        assertThat(refused.problems(metadata)).singleElement()
            .asString()
            .startsWith("docs/refused.md, yaml block at line 5: limiter.policies.search.alert-at = '30'");
        Snippet broken = new Snippet("docs/broken.md", 5, """
                limiter:
                  redis: timeout: 100ms
                """);
        assertThat(broken.problems(metadata)).singleElement()
            .asString()
            .startsWith("docs/broken.md, yaml block at line 5, is not YAML");
    }

    @Test
    void aPlaceholderIsResolvedFromTheBlockAndOneLeftToTheReaderIsNotConverted() throws IOException {
        Snippet placeholders = new Snippet("docs/placeholders.md", 5, """
                limiter:
                  redis:
                    timeout: ${REDIS_TIMEOUT}
                    connect-timeout: ${CONNECT_TIMEOUT:soon}
                  local-cache:
                    max-time: ${limiter.redis.timeout}
                    max-entrys: ${MAX_ENTRIES}
                """);
        assertThat(placeholders.problems(Metadata.fromClasspath())).containsExactlyInAnyOrder(
                "docs/placeholders.md:9: limiter.redis.connect-timeout = '${CONNECT_TIMEOUT:soon}' does not bind:"
                        + " 'soon' is not a valid duration",
                "docs/placeholders.md:12: limiter.local-cache.max-entrys = '${MAX_ENTRIES}' is not a property"
                        + " of the starter");
    }

    @Test
    void everyPropertyOfTheStarterHasARowInConfigurationMd() throws IOException {
        Map<String, String> starter = Metadata.fromClasspath().starter();
        List<String> rows = propertyRows(Files.readString(ROOT.resolve("docs/configuration.md")));
        assertThat(starter).as("the starter's properties").containsKey("limiter.enabled").hasSizeGreaterThan(20);
        assertThat(rows).as("rows of the properties table").hasSizeGreaterThan(20);
        assertSoftly((softly) -> {
            softly.assertThat(unlisted(starter, rows))
                .as("properties of the starter missing from docs/configuration.md")
                .isEmpty();
            softly.assertThat(unknown(rows, starter))
                .as("rows of docs/configuration.md naming no property of the starter")
                .isEmpty();
        });
    }

    @Test
    void aPropertyWithoutARowAndARowWithoutAPropertyAreFound() {
        Map<String, String> starter = Map.of("limiter.redis.timeout", "java.time.Duration", "limiter.web.new-setting",
                "java.lang.String", "limiter.policies",
                "java.util.Map<java.lang.String,io.github.limiter.autoconfigure.LimiterPolicyProperties>");
        List<String> rows = List.of("limiter.redis.timeout", "limiter.policies.<name>.alert-at",
                "limiter.policies.<name>.alert-after");
        assertThat(unlisted(starter, rows)).containsExactly("limiter.web.new-setting");
        assertThat(unknown(rows, starter)).containsExactly("limiter.policies.<name>.alert-after");
    }

    /** The properties of the table under "## Properties", by the name in their first column. */
    static List<String> propertyRows(String configurationMd) {
        int start = configurationMd.indexOf("## Properties");
        int end = configurationMd.indexOf("\n## ", start + 1);
        Matcher row = TABLE_ROW.matcher(configurationMd.substring(start, (end < 0) ? configurationMd.length() : end));
        List<String> rows = new ArrayList<>();
        while (row.find()) {
            rows.add(row.group(1));
        }
        return rows;
    }

    static List<String> unlisted(Map<String, String> properties, List<String> rows) {
        return properties.keySet()
            .stream()
            .filter((property) -> rows.stream().noneMatch((row) -> names(row, property, properties.get(property))))
            .sorted()
            .toList();
    }

    static List<String> unknown(List<String> rows, Map<String, String> properties) {
        return rows.stream()
            .filter((row) -> properties.entrySet()
                .stream()
                .noneMatch((property) -> names(row, property.getKey(), property.getValue())))
            .toList();
    }

    /**
     * Whether the row names the property: the same name, or, for a map of objects, one of the
     * objects' properties after the entry's name ({@code limiter.policies.<name>.window}).
     */
    private static boolean names(String row, String property, String type) {
        if (row.equals(property)) {
            return true;
        }
        if (!type.startsWith("java.util.Map<") || !row.startsWith(property + ".")) {
            return false;
        }
        String entry = row.substring(property.length() + 1);
        int dot = entry.indexOf('.');
        if (dot < 0) {
            return true;
        }
        String valueType = type.substring(type.indexOf(',') + 1, type.length() - 1).strip();
        Class<?> values = ClassUtils.resolveClassName(valueType, ConfigurationSnippetsTests.class.getClassLoader());
        return BeanUtils.getPropertyDescriptor(values, camelCase(entry.substring(dot + 1))) != null;
    }

    private static String camelCase(String kebabCase) {
        StringBuilder name = new StringBuilder();
        for (String word : kebabCase.split("-")) {
            name.append(name.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return name.toString();
    }

    private static int lineOf(String text, int index) {
        return (int) text.substring(0, index).chars().filter((c) -> c == '\n').count() + 1;
    }

    private static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    /**
     * One {@code ```yaml} block.
     * @param doc the file, relative to the repository
     * @param line the line of the block's opening fence
     * @param yaml the block's content
     */
    record Snippet(String doc, int line, String yaml) {

        List<String> problems(Metadata metadata) {
            List<String> problems = new ArrayList<>();
            for (EnumerablePropertySource<?> document : documents(problems)) {
                PlaceholdersResolver placeholders = new PropertySourcesPlaceholdersResolver(List.of(document));
                Binder binder = new Binder(ConfigurationPropertySources.from(document), placeholders);
                bindLimiter(binder, placeholders, problems);
                for (String key : document.getPropertyNames()) {
                    if (!key.startsWith("limiter.")) {
                        checkAgainstMetadata(key, document, binder, placeholders, metadata, problems);
                    }
                }
            }
            return problems;
        }

        Set<String> keys() {
            Set<String> keys = new HashSet<>();
            documents(new ArrayList<>()).forEach((document) -> keys.addAll(List.of(document.getPropertyNames())));
            return keys;
        }

        private List<EnumerablePropertySource<?>> documents(List<String> problems) {
            String name = this.doc + ", yaml block at line " + this.line;
            try {
                List<EnumerablePropertySource<?>> documents = new ArrayList<>();
                for (PropertySource<?> document : new YamlPropertySourceLoader().load(name,
                        new ByteArrayResource(this.yaml.getBytes(StandardCharsets.UTF_8), name))) {
                    documents.add((EnumerablePropertySource<?>) document);
                }
                return documents;
            }
            catch (IOException | RuntimeException ex) {
                problems.add(name + ", is not YAML: " + NestedExceptionUtils.getMostSpecificCause(ex).getMessage());
                return List.of();
            }
        }

        private void bindLimiter(Binder binder, PlaceholdersResolver placeholders, List<String> problems) {
            Failures failures = new Failures(placeholders);
            try {
                binder.bind("limiter", Bindable.of(LimiterProperties.class), new NoUnboundElementsBindHandler(failures))
                    .ifBound((properties) -> {
                        if (failures.names.isEmpty()) {
                            validate(properties, problems);
                        }
                    });
            }
            catch (BindException ex) {
                if (ex.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
                    unbound.getUnboundProperties()
                        .stream()
                        .filter((property) -> !failures.names.contains(property.getName()))
                        .forEach((property) -> problems.add(at(property.getOrigin()) + property.getName() + " = '"
                                + property.getValue() + "' is not a property of the starter"));
                }
                else {
                    failures.add(ex.getName(), ex.getProperty(), ex);
                }
            }
            problems.addAll(failures.problems);
        }

        private void validate(LimiterProperties properties, List<String> problems) {
            SimpleErrors errors = new SimpleErrors(properties, "limiter");
            properties.validate(properties, errors);
            for (ObjectError error : errors.getAllErrors()) {
                problems.add(this.doc + ", yaml block at line " + this.line + ": " + error.getDefaultMessage());
            }
        }

        private void checkAgainstMetadata(String key, EnumerablePropertySource<?> document, Binder binder,
                PlaceholdersResolver placeholders, Metadata metadata, List<String> problems) {
            // a list's elements, a[0], are the property a
            String name = key.replaceAll("\\[[^]]*]", "");
            String where = at(OriginLookup.getOrigin(document, key)) + key + " = '" + document.getProperty(key) + "'";
            if (metadata.ownedByStarter(name)) {
                String type = metadata.starter().get(name);
                if (type == null) {
                    problems.add(where + " is not a property the starter declares");
                    return;
                }
                try {
                    binder.bind(name, Bindable.of(ClassUtils.resolveClassName(type.replaceAll("<.*", ""),
                            ConfigurationSnippetsTests.class.getClassLoader())));
                }
                catch (BindException ex) {
                    if (!unresolved(placeholders, ex.getProperty())) {
                        problems.add(where + " does not convert to " + type + ": "
                                + NestedExceptionUtils.getMostSpecificCause(ex).getMessage());
                    }
                }
            }
            else if (!metadata.declares(name)) {
                problems.add(where + " is declared by no configuration metadata on the sample app's classpath");
            }
        }

        /** The file and line of a value, with the colon and space that lead the message. */
        private String at(@Nullable Origin origin) {
            if (origin instanceof PropertySourceOrigin bound) {
                return at(bound.getOrigin());
            }
            if (origin instanceof TextResourceOrigin text && text.getLocation() != null) {
                return this.doc + ":" + (this.line + 1 + text.getLocation().getLine()) + ": ";
            }
            return this.doc + ", yaml block at line " + this.line + ": ";
        }

        /**
         * Records each failure to bind a value and binds on, so that every bad value of a block
         * is reported, not only the first.
         */
        private final class Failures extends AbstractBindHandler {

            private final PlaceholdersResolver placeholders;

            private final Set<ConfigurationPropertyName> names = new HashSet<>();

            private final List<String> problems = new ArrayList<>();

            Failures(PlaceholdersResolver placeholders) {
                super(new IgnoreTopLevelConverterNotFoundBindHandler());
                this.placeholders = placeholders;
            }

            @Override
            public @Nullable Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
                    Exception error) {
                try {
                    return super.onFailure(name, target, context, error);
                }
                catch (Exception ex) {
                    add(name, context.getConfigurationProperty(), error);
                    return null;
                }
            }

            void add(ConfigurationPropertyName name, @Nullable ConfigurationProperty property, Exception error) {
                this.names.add(name);
                if (unresolved(this.placeholders, property)) {
                    return;
                }
                // a setter's refusal fails the object's name (limiter.web); the property is the value it refused
                String reason = NestedExceptionUtils.getMostSpecificCause(error).getMessage();
                this.problems.add((property != null)
                        ? at(property.getOrigin()) + property.getName() + " = '" + property.getValue()
                                + "' does not bind: " + reason
                        : at(null) + name + " does not bind: " + reason);
            }

        }

        /** Whether the value holds a placeholder that the block itself does not resolve. */
        private static boolean unresolved(PlaceholdersResolver placeholders, @Nullable ConfigurationProperty property) {
            return property != null && property.getValue() instanceof CharSequence value
                    && String.valueOf(placeholders.resolvePlaceholders(value.toString())).contains("${");
        }

    }

    /**
     * The names and types of the properties of configuration metadata on the classpath.
     * @param starter the starter's properties
     * @param all the properties of every metadata file on the classpath, the starter's included
     */
    record Metadata(Map<String, String> starter, Map<String, String> all) {

        static Metadata fromClasspath() throws IOException {
            Map<String, String> starter = new LinkedHashMap<>();
            Map<String, String> all = new LinkedHashMap<>();
            for (Resource resource : new PathMatchingResourcePatternResolver()
                .getResources("classpath*:META-INF/spring-configuration-metadata.json")) {
                Map<String, String> properties = read(resource);
                all.putAll(properties);
                if (properties.keySet().stream().anyMatch((name) -> name.startsWith("limiter."))) {
                    starter.putAll(properties);
                    Resource additional = resource.createRelative("additional-spring-configuration-metadata.json");
                    if (additional.exists()) {
                        starter.putAll(read(additional));
                    }
                }
            }
            all.putAll(starter);
            return new Metadata(starter, all);
        }

        /** Whether the name lies under a prefix that the starter declares outside limiter.*. */
        boolean ownedByStarter(String name) {
            return this.starter.keySet()
                .stream()
                .filter((property) -> !property.startsWith("limiter."))
                .map((property) -> property.substring(0, property.lastIndexOf('.') + 1))
                .anyMatch(name::startsWith);
        }

        /** Whether some metadata declares the property, or a map property it is an entry of. */
        boolean declares(String name) {
            return this.all.containsKey(name) || this.all.entrySet()
                .stream()
                .anyMatch((property) -> property.getValue().startsWith("java.util.Map<")
                        && name.startsWith(property.getKey() + "."));
        }

        @SuppressWarnings("unchecked")
        private static Map<String, String> read(Resource resource) throws IOException {
            Map<String, Object> metadata = JsonParserFactory.getJsonParser()
                .parseMap(resource.getContentAsString(StandardCharsets.UTF_8));
            Map<String, String> properties = new LinkedHashMap<>();
            for (Object property : (List<Object>) metadata.getOrDefault("properties", List.of())) {
                Map<String, Object> fields = (Map<String, Object>) property;
                properties.put((String) fields.get("name"), (String) fields.getOrDefault("type", "java.lang.Object"));
            }
            return properties;
        }

    }

}
