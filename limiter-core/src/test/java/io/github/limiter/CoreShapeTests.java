package io.github.limiter;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.github.limiter.test.PackageCycles;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shape of the published modules: no package of the core depends on itself through others;
 * what is public outside the internal packages is what the docs show users naming, and no
 * signature of it names an internal type; only the starters and the test kits import internal
 * packages; nothing is deprecated; and no class grows past what one reads in one sitting.
 */
class CoreShapeTests {

    private static final Path CLASSES = Path.of("target", "classes");

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)", Pattern.MULTILINE);

    private static final Pattern PUBLIC_TOP_LEVEL_TYPE = Pattern.compile(
            "^public\\s+(?:(?:final|abstract|sealed|non-sealed)\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)",
            Pattern.MULTILINE);

    // the modules that may import the internal packages
    private static final List<String> INTERNAL_IMPORTERS = List.of("/limiter-spring-boot-starter/",
            "/limiter-spring-boot3-starter/", "/limiter-test/", "/limiter-test-boot3/");

    private static final List<String> PUBLISHED_MODULES = List.of("limiter-core", "limiter-spring-boot-starter",
            "limiter-spring-boot3-starter", "limiter-test", "limiter-test-boot3");

    @Test
    void noPackageDependsOnItselfThroughOthers() {
        PackageCycles packages = PackageCycles.in(CLASSES);
        assertThat(packages.uses()).as("jdeps found the core's packages").containsKeys("io.github.limiter.redis",
                "io.github.limiter.annotation");
        assertThat(packages.onACycle()).as("packages on a cycle, with %s", packages).isEmpty();
    }

    /**
     * What users name is the API: every public type outside the internal packages, in every
     * published module, is one the README or docs/ show users naming. Anything else is internal,
     * or package-private.
     */
    @Test
    void everyPublicTypeOutsideInternalIsOneTheDocsShowUsersNaming() throws IOException {
        String docs = documentation();
        List<String> undocumented = new ArrayList<>();
        for (Path file : mainSources()) {
            String source = Files.readString(file);
            Matcher pkg = PACKAGE.matcher(source);
            Matcher type = PUBLIC_TOP_LEVEL_TYPE.matcher(source);
            if (pkg.find() && !pkg.group(1).contains(".internal") && type.find()
                    && !Pattern.compile("\\b" + type.group(1) + "\\b").matcher(docs).find()) {
                undocumented.add(pkg.group(1) + "." + type.group(1));
            }
        }
        assertThat(undocumented).as("public types no page of the docs names").isEmpty();
    }

    /** An internal type never reaches users through the signature of a type they name. */
    @Test
    void noPublicSignatureOutsideInternalNamesAnInternalType() throws IOException {
        List<String> leaks = new ArrayList<>();
        try (Stream<Path> files = Files.walk(CLASSES)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = CLASSES.relativize(file).toString();
                if (!name.endsWith(".class") || name.endsWith("package-info.class") || name.contains(".internal")
                        || name.contains("/internal/")) {
                    continue;
                }
                Class<?> type = load(name.substring(0, name.length() - ".class".length()).replace('/', '.'));
                if (!isVisible(type)) {
                    continue;
                }
                for (Method method : type.getDeclaredMethods()) {
                    if (isVisible(method.getModifiers()) && !method.isSynthetic()) {
                        leaks(type.getName() + "." + method.getName(), method.getGenericReturnType(), leaks);
                        for (Type parameter : method.getGenericParameterTypes()) {
                            leaks(type.getName() + "." + method.getName(), parameter, leaks);
                        }
                    }
                }
                for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                    if (isVisible(constructor.getModifiers()) && !constructor.isSynthetic()) {
                        for (Type parameter : constructor.getGenericParameterTypes()) {
                            leaks(type.getName() + ".<init>", parameter, leaks);
                        }
                    }
                }
                for (Field field : type.getDeclaredFields()) {
                    if (isVisible(field.getModifiers()) && !field.isSynthetic()) {
                        leaks(type.getName() + "." + field.getName(), field.getGenericType(), leaks);
                    }
                }
                leaks(type.getName() + " extends", type.getGenericSuperclass(), leaks);
                for (Type implemented : type.getGenericInterfaces()) {
                    leaks(type.getName() + " implements", implemented, leaks);
                }
            }
        }
        assertThat(leaks).as("internal types in public signatures").isEmpty();
    }

    /**
     * The internal packages are for the starters and the test kits: no application, example or
     * tool of this repository imports them, so no user is shown them (the architecture map in
     * docs/how-it-works.md names them for maintainers).
     */
    @Test
    void onlyTheStartersAndTestKitsImportInternalPackages() throws IOException {
        List<String> importers = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of(".."))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String path = file.toString().replace('\\', '/');
                if (!(path.endsWith(".java") || path.endsWith(".kt")) || path.contains("/target/")
                        || path.contains("/limiter-core/") || INTERNAL_IMPORTERS.stream().anyMatch(path::contains)) {
                    continue;
                }
                if (Files.readString(file).contains("import io.github.limiter.internal")) {
                    importers.add(path);
                }
            }
        }
        assertThat(importers).isEmpty();
    }

    private static boolean isVisible(Class<?> type) {
        for (Class<?> enclosing = type; enclosing != null; enclosing = enclosing.getDeclaringClass()) {
            if (!isVisible(enclosing.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    private static boolean isVisible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void leaks(String where, @Nullable Type type, List<String> leaks) {
        if (type instanceof Class<?> named) {
            Class<?> component = named.isArray() ? named.getComponentType() : named;
            if (component.getName().startsWith("io.github.limiter.internal")) {
                leaks.add(where + ": " + component.getName());
            }
        }
        else if (type instanceof ParameterizedType parameterized) {
            leaks(where, parameterized.getRawType(), leaks);
            for (Type argument : parameterized.getActualTypeArguments()) {
                leaks(where, argument, leaks);
            }
        }
        else if (type instanceof WildcardType wildcard) {
            for (Type bound : wildcard.getUpperBounds()) {
                leaks(where, bound, leaks);
            }
            for (Type bound : wildcard.getLowerBounds()) {
                leaks(where, bound, leaks);
            }
        }
        else if (type instanceof GenericArrayType array) {
            leaks(where, array.getGenericComponentType(), leaks);
        }
    }

    /** The README and every page of docs/, as one text. */
    private static String documentation() throws IOException {
        StringBuilder docs = new StringBuilder(Files.readString(Path.of("..", "README.md")));
        try (Stream<Path> pages = Files.list(Path.of("..", "docs"))) {
            for (Path page : (Iterable<Path>) pages.filter((file) -> file.toString().endsWith(".md"))::iterator) {
                docs.append('\n').append(Files.readString(page));
            }
        }
        return docs.toString();
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

    private static Class<?> load(String type) {
        try {
            return Class.forName(type, false, CoreShapeTests.class.getClassLoader());
        }
        catch (ClassNotFoundException ex) {
            throw new IllegalStateException(ex);
        }
    }

}
