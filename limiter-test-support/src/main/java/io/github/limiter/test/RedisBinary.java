package io.github.limiter.test;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import redis.embedded.core.ExecutableProvider;

/**
 * The {@code redis-server} executable that every server and sentinel of this JVM runs, chosen once:
 * the one named by the system property {@value #PROPERTY} or, failing that, the environment
 * variable {@value #ENVIRONMENT_VARIABLE}; otherwise the one bundled in {@code embedded-redis}. Also
 * Redis 2.8 ({@link #redis28()}), for tests that the limiter refuses a Redis that old.
 *
 * @param executable the executable file
 * @param version what the executable says of itself, such as {@code Redis server v=7.0.15} or
 * {@code Valkey server v=8.0.1}
 * @param majorVersion the major version in it, such as 7 or 8
 */
record RedisBinary(File executable, String version, int majorVersion) {

    /** Names the redis-server (or valkey-server) executable to run instead of the bundled one. */
    static final String PROPERTY = "limiter.test.redis-server";

    /** The same as {@link #PROPERTY}, for a shell that cannot pass Maven a property. */
    static final String ENVIRONMENT_VARIABLE = "LIMITER_TEST_REDIS_SERVER";

    /**
     * Redis 2.8 from an old embedded-redis, whose classes would clash with the current ones: the
     * build unpacks only this executable, beside this class.
     */
    private static final String REDIS_2_8 = "redis-server-2.8.19";

    private static final Pattern VERSION = Pattern.compile("^(\\S+ server v=(\\d+)\\.\\S+)");

    /**
     * Returns the executable of this JVM, resolving it and writing which one it is to standard
     * output on first use.
     * @return the executable
     */
    static RedisBinary get() {
        return Chosen.BINARY;
    }

    /**
     * Returns Redis 2.8.19, older than the limiter supports, extracting it on first use.
     * @return the executable
     */
    static RedisBinary redis28() {
        return Redis28.BINARY;
    }

    /**
     * Returns the executable for an embedded-redis builder.
     * @return a provider of {@link #executable()}
     */
    ExecutableProvider provider() {
        return this::executable;
    }

    private static RedisBinary choose() {
        String named = System.getProperty(PROPERTY, System.getenv(ENVIRONMENT_VARIABLE));
        RedisBinary binary = of(named);
        // On standard output, not a logger: the build log shows it whatever a module's logging level.
        System.out.println("Redis for tests: " + binary.executable + " (" + binary.version + "), "
                + (isBlank(named) ? "bundled in embedded-redis" : "named by " + PROPERTY + " or "
                        + ENVIRONMENT_VARIABLE));
        return binary;
    }

    /**
     * Resolves an executable and asks it its version.
     * @param named the executable's path, or {@code null} or blank for the bundled one
     * @return the executable
     * @throws IllegalStateException if {@code named} is no executable file, or no redis-server
     */
    static RedisBinary of(@Nullable String named) {
        return at(isBlank(named) ? extractBundled() : requireExecutable(named));
    }

    private static RedisBinary at(File executable) {
        return ofVersionOutput(executable, versionOutput(executable));
    }

    private static boolean isBlank(@Nullable String named) {
        return named == null || named.isBlank();
    }

    private static File extractBundled() {
        try {
            // once per JVM: embedded-redis would otherwise write a copy to a new folder per server
            return ExecutableProvider.newJarResourceProvider().get();
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not extract the redis-server of embedded-redis", ex);
        }
    }

    private static File extractRedis28() {
        Path directory = TempDirectory.create("limiter-redis-2.8-");
        Path executable = directory.resolve(REDIS_2_8);
        try (InputStream bundled = RedisBinary.class.getResourceAsStream(REDIS_2_8)) {
            if (bundled == null) {
                throw new IllegalStateException(REDIS_2_8 + " is missing beside " + RedisBinary.class.getName()
                        + ": the build of limiter-test-support unpacks it there");
            }
            Files.copy(bundled, executable);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not extract " + REDIS_2_8, ex);
        }
        // deleted in the reverse order: the file, then its folder
        directory.toFile().deleteOnExit();
        executable.toFile().deleteOnExit();
        executable.toFile().setExecutable(true);
        return executable.toFile();
    }

    private static File requireExecutable(String named) {
        File executable = new File(named).getAbsoluteFile();
        if (!executable.isFile() || !executable.canExecute()) {
            throw new IllegalStateException(PROPERTY + " (or " + ENVIRONMENT_VARIABLE + ") names '" + named
                    + "', which is not an executable file");
        }
        return executable;
    }

    private static RedisBinary ofVersionOutput(File executable, String output) {
        Matcher matcher = VERSION.matcher(output);
        if (!matcher.find()) {
            throw new IllegalStateException(executable + " does not look like redis-server: its --version says '"
                    + output + "'");
        }
        return new RedisBinary(executable, matcher.group(1), Integer.parseInt(matcher.group(2)));
    }

    private static String versionOutput(File executable) {
        try {
            Process process = new ProcessBuilder(executable.getPath(), "--version").redirectErrorStream(true)
                .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException(executable + " --version failed: " + output);
            }
            return output;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not run " + executable + " --version", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** Holds the executable; chosen on first access, once, thread-safely. */
    private static final class Chosen {

        static final RedisBinary BINARY = choose();

    }

    /** Holds Redis 2.8; extracted on first access, once, thread-safely. */
    private static final class Redis28 {

        static final RedisBinary BINARY = at(extractRedis28());

    }

}
