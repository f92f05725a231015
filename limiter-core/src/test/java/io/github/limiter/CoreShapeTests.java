package io.github.limiter;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shape of limiter-core, as the JDK's own tools see its compiled classes: no package depends
 * on itself through others, few public types, and no class of a published module grows past what
 * one reads in one sitting.
 */
class CoreShapeTests {

    private static final Path CLASSES = Path.of("target", "classes");

    // the public top-level types of the API today, RateLimitAdmin, RedisRateLimiterBuilder and
    // CalendarWindow (issue 29's calendar quotas) among them; issue 28's goal is 20
    // and PrintableKeys (issue 36: keys written where people read them)
    private static final int MOST_PUBLIC_TYPES = 35;

    private static final List<String> PUBLISHED_MODULES = List.of("limiter-core", "limiter-spring-boot-starter",
            "limiter-spring-boot3-starter", "limiter-test", "limiter-test-boot3");

    @Test
    void noPackageDependsOnItselfThroughOthers() {
        Map<String, Set<String>> uses = packageDependencies();
        assertThat(uses).as("jdeps found the core's packages").containsKeys("io.github.limiter.redis",
                "io.github.limiter.annotation");
        List<String> cycles = new ArrayList<>();
        for (String from : uses.keySet()) {
            if (reaches(uses, from, from, new HashSet<>())) {
                cycles.add(from);
            }
        }
        assertThat(cycles).as("packages on a cycle, with %s", uses).isEmpty();
    }

    @Test
    void fewTypesArePublic() throws IOException {
        Set<String> publicTypes = new TreeSet<>();
        try (Stream<Path> files = Files.walk(CLASSES)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = CLASSES.relativize(file).toString();
                if (!name.endsWith(".class") || name.contains("$") || name.endsWith("package-info.class")) {
                    continue;
                }
                String type = name.substring(0, name.length() - ".class".length()).replace(file.getFileSystem()
                    .getSeparator(), ".");
                Class<?> loaded = load(type);
                if (Modifier.isPublic(loaded.getModifiers())) {
                    publicTypes.add(type);
                }
            }
        }
        assertThat(publicTypes).as("public top-level types").isNotEmpty().hasSizeLessThanOrEqualTo(MOST_PUBLIC_TYPES);
    }

    /** 0.1.0 was never released: a name changes outright, nothing is kept deprecated for callers that do not exist. */
    @Test
    void noMainCodeOfAPublishedModuleIsDeprecated() throws IOException {
        List<String> deprecated = new ArrayList<>();
        for (Path file : mainSources()) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains("@Deprecated") || lines.get(i).contains("@deprecated")) {
                    deprecated.add(file + ":" + (i + 1));
                }
            }
        }
        assertThat(deprecated).isEmpty();
    }

    @Test
    void noMainClassOfAPublishedModuleIsOver400Lines() throws IOException {
        List<String> tooLong = new ArrayList<>();
        int read = 0;
        for (String module : PUBLISHED_MODULES) {
            Path sources = Path.of("..", module, "src", "main");
            if (!Files.isDirectory(sources)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".java") || name.endsWith(".kt")) {
                        read++;
                        long lines = Files.readAllLines(file).size();
                        if (lines > 400) {
                            tooLong.add(file + " (" + lines + " lines)");
                        }
                    }
                }
            }
        }
        assertThat(read).as("source files read").isGreaterThan(100);
        assertThat(tooLong).isEmpty();
    }

    /** The Java and Kotlin main sources of every published module. */
    private static List<Path> mainSources() throws IOException {
        List<Path> sources = new ArrayList<>();
        for (String module : PUBLISHED_MODULES) {
            Path main = Path.of("..", module, "src", "main");
            if (Files.isDirectory(main)) {
                try (Stream<Path> files = Files.walk(main)) {
                    files.filter((file) -> file.toString().endsWith(".java") || file.toString().endsWith(".kt"))
                        .forEach(sources::add);
                }
            }
        }
        assertThat(sources).as("source files read").hasSizeGreaterThan(100);
        return sources;
    }

    private static boolean reaches(Map<String, Set<String>> uses, String from, String target, Set<String> seen) {
        for (String next : uses.getOrDefault(from, Set.of())) {
            if (next.equals(target)) {
                return true;
            }
            if (seen.add(next) && reaches(uses, next, target, seen)) {
                return true;
            }
        }
        return false;
    }

    /** Each core package and the core packages it uses, as jdeps reads them from the classes. */
    private static Map<String, Set<String>> packageDependencies() {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int status = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:package", "-e",
                "io\\.github\\.limiter(\\..*)?", CLASSES.toString());
        assertThat(status).as("jdeps: %s", out).isZero();
        Map<String, Set<String>> uses = new HashMap<>();
        for (String line : out.toString().split("\\R")) {
            String[] words = line.trim().split("\\s+");
            if (words.length >= 3 && words[1].equals("->") && words[0].startsWith("io.github.limiter")
                    && !words[0].equals(words[2])) {
                uses.computeIfAbsent(words[0], (name) -> new HashSet<>()).add(words[2]);
            }
        }
        return uses;
    }

    private static Class<?> load(String type) {
        try {
            return Class.forName(type, false, CoreShapeTests.class.getClassLoader());
        }
        catch (ClassNotFoundException ex) {
            throw new IllegalStateException(ex);
        }
    }

}
