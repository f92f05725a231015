package io.github.limiter.test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The packages of a module's compiled classes that depend on themselves through others, for the
 * tests that keep a module's packages free of cycles. A package uses another where one of its
 * class files names a class of it anywhere: in code, signatures, and annotations too (an
 * {@code @Import} of a configuration class, which {@code jdeps} does not count).
 */
public final class PackageCycles {

    // a class of the project as a class file names it: io/github/limiter/redis/RedisRateLimiter
    private static final Pattern CLASS_NAME = Pattern.compile("io/github/limiter/[A-Za-z0-9_/$]+");

    private final Map<String, Set<String>> uses;

    private PackageCycles(Map<String, Set<String>> uses) {
        this.uses = uses;
    }

    /**
     * Reads which of the project's packages each package in a directory of classes uses.
     * @param classes a module's compiled classes, {@code target/classes}
     * @return the packages and what they use
     * @throws IllegalStateException if the directory is missing or cannot be read
     */
    public static PackageCycles in(Path classes) {
        if (!Files.isDirectory(classes)) {
            throw new IllegalStateException("No classes at " + classes.toAbsolutePath());
        }
        Map<String, Set<String>> uses = new HashMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = classes.relativize(file).toString().replace(File.separatorChar, '/');
                if (name.endsWith(".class") && name.startsWith("io/github/limiter/")
                        && !name.endsWith("package-info.class")) {
                    String from = packageOf(name);
                    Set<String> used = uses.computeIfAbsent(from, (key) -> new HashSet<>());
                    // the constant pool's names are ASCII here, whatever the rest of the file holds
                    String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                    Matcher names = CLASS_NAME.matcher(bytes);
                    while (names.find()) {
                        String to = packageOf(names.group());
                        if (!to.equals(from)) {
                            used.add(to);
                        }
                    }
                }
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return new PackageCycles(uses);
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('/')).replace('/', '.');
    }

    /**
     * Returns the packages read, each with the project's other packages it uses.
     * @return the packages and what they use
     */
    public Map<String, Set<String>> uses() {
        return this.uses;
    }

    /**
     * Returns the packages that reach themselves through the packages they use.
     * @return the packages on a cycle, sorted; empty where there is none
     */
    public Set<String> onACycle() {
        Set<String> cycles = new TreeSet<>();
        for (String from : this.uses.keySet()) {
            if (reaches(from, from, new HashSet<>())) {
                cycles.add(from);
            }
        }
        return cycles;
    }

    private boolean reaches(String from, String target, Set<String> seen) {
        for (String next : this.uses.getOrDefault(from, Set.of())) {
            if (next.equals(target)) {
                return true;
            }
            if (seen.add(next) && reaches(next, target, seen)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return this.uses.toString();
    }

}
