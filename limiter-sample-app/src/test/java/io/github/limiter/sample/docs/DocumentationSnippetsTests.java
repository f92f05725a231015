package io.github.limiter.sample.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java snippet of the README and docs/ is compiled code: its lines appear, in order, in one
 * source file of the build ({@code src/main/java} or {@code src/test/java} of any module), such as
 * the sample app or {@link DocumentationExamples}. A snippet may shorten a body to
 * {@code { ... }} and add a trailing {@code //} comment; its imports may stand in any order.
 */
class DocumentationSnippetsTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everyJavaSnippetOfTheDocsIsInACompiledSourceFile() throws IOException {
        List<Source> sources = sources();
        List<String> missing = new ArrayList<>();
        int snippets = 0;
        for (Path doc : docs()) {
            Matcher block = JAVA_BLOCK.matcher(Files.readString(doc));
            while (block.find()) {
                snippets++;
                List<String> lines = significantLines(block.group(1));
                if (sources.stream().noneMatch((source) -> source.contains(lines))) {
                    missing.add(ROOT.relativize(doc) + ":\n" + block.group(1));
                }
            }
        }
        assertThat(snippets).as("Java snippets found").isGreaterThan(10);
        assertThat(missing).as("snippets found in no compiled source file").isEmpty();
    }

    @Test
    void aSnippetThatDriftedFromItsSourceIsFound() throws IOException {
        List<String> drifted = significantLines("""
                @RateLimit(key = "#userId", window = "60s", max = 21)
                public Answer answer(long questionId, String userId) { ... }
                """);
        List<String> current = significantLines("""
                @RateLimit(key = "#userId", window = "60s", max = 20)
                public Answer answer(long questionId, String userId) { ... }
                """);
        List<Source> sources = sources();
        assertThat(sources.stream().anyMatch((source) -> source.contains(drifted))).as("max = 21 found").isFalse();
        assertThat(sources.stream().anyMatch((source) -> source.contains(current))).as("max = 20 found").isTrue();
    }

    /** The lines a source must have: no comments, no blank lines, a shortened body cut off. */
    static List<String> significantLines(String snippet) {
        List<String> lines = new ArrayList<>();
        for (String line : snippet.split("\n")) {
            String text = line.strip();
            int shortened = text.indexOf("{ ... }");
            if (shortened >= 0) {
                text = text.substring(0, shortened).strip();
            }
            int comment = text.indexOf("//");
            if (comment >= 0 && !text.startsWith("import ")) {
                text = text.substring(0, comment).strip();
            }
            if (!text.isEmpty()) {
                lines.add(text);
            }
        }
        return lines;
    }

    private static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    private static List<Source> sources() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter((file) -> file.toString().endsWith(".java"))
                .filter((file) -> {
                    String path = ROOT.relativize(file).toString().replace('\\', '/');
                    return path.contains("/src/main/java/") || path.contains("/src/test/java/")
                            || path.contains("/src/main/boot4/");
                })
                .filter((file) -> !file.toString().contains("/target/"))
                // this class quotes snippets that must not count as sources
                .filter((file) -> !file.getFileName().toString().equals("DocumentationSnippetsTests.java"))
                .map(Source::read)
                .toList();
        }
    }

    /** A source file's lines, stripped. */
    record Source(Path path, List<String> lines) {

        static Source read(Path path) {
            try {
                return new Source(path, Files.readAllLines(path).stream().map(String::strip).toList());
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }

        /** Imports anywhere; every other line in order, each starting a line of the source. */
        boolean contains(List<String> snippet) {
            int next = 0;
            for (String line : snippet) {
                if (line.startsWith("import ")) {
                    if (!this.lines.contains(line)) {
                        return false;
                    }
                    continue;
                }
                int found = -1;
                for (int i = next; i < this.lines.size() && found < 0; i++) {
                    if (this.lines.get(i).startsWith(line)) {
                        found = i;
                    }
                }
                if (found < 0) {
                    return false;
                }
                next = found + 1;
            }
            return true;
        }

    }

}
