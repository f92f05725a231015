package io.github.limiter.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@code wrk} (the Debian package) against one URL with {@code wrk_users.lua}, which spreads
 * the requests over 10,000 users, and reads its summary.
 */
final class Wrk {

    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in");

    private static final Pattern PER_SECOND = Pattern.compile("Requests/sec:\\s+([\\d.]+)");

    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

    private static final Pattern SOCKET_ERRORS = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

    /** The second line of the shell's {@code times}: its children's user and system time. */
    private static final Pattern CHILDREN_TIMES = Pattern.compile(
            "^\\d+m[\\d.]+s \\d+m[\\d.]+s\\R(\\d+)m([\\d.]+)s (\\d+)m([\\d.]+)s\\s*\\z", Pattern.MULTILINE);

    private final Path script;

    private final int threads;

    private final int connections;

    private Wrk(Path script, int threads, int connections) {
        this.script = script;
        this.threads = threads;
        this.connections = connections;
    }

    /** Copies the Lua script out of the class path and checks that {@code wrk} runs. */
    static Wrk create(int threads, int connections) {
        try (InputStream in = Wrk.class.getResourceAsStream("wrk_users.lua")) {
            Path script = Files.createTempFile("wrk_users", ".lua");
            script.toFile().deleteOnExit();
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
            Wrk wrk = new Wrk(script, threads, connections);
            wrk.exec(List.of("wrk", "--version"));
            return wrk;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("wrk did not run: install it (apt-get install wrk)", ex);
        }
    }

    /** Drives the URL for the duration. */
    Result run(String url, Duration duration) {
        // the shell's "times" prints, after wrk exits, the CPU time its children used
        String wrk = String.join(" ", "wrk", "-t" + this.threads, "-c" + this.connections,
                "-d" + duration.toSeconds() + "s", "--latency", "-s", this.script.toString(), url);
        String out = exec(List.of("sh", "-c", wrk + " && times"));
        Matcher times = CHILDREN_TIMES.matcher(out);
        if (!times.find()) {
            throw new IllegalStateException("No CPU times after wrk's output:\n" + out);
        }
        double cpuSeconds = seconds(times.group(1), times.group(2)) + seconds(times.group(3), times.group(4));
        Matcher non2xx = NON_2XX.matcher(out);
        Matcher errors = SOCKET_ERRORS.matcher(out);
        long socketErrors = 0;
        if (errors.find()) {
            for (int i = 1; i <= 4; i++) {
                socketErrors += Long.parseLong(errors.group(i));
            }
        }
        return new Result(Long.parseLong(find(REQUESTS, out)), Double.parseDouble(find(PER_SECOND, out)),
                latencyMillis(out, "50%"), latencyMillis(out, "99%"),
                non2xx.find() ? Long.parseLong(non2xx.group(1)) : 0, socketErrors, cpuSeconds);
    }

    private static double seconds(String minutes, String seconds) {
        return Integer.parseInt(minutes) * 60 + Double.parseDouble(seconds);
    }

    private static String exec(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = process.waitFor();
            // wrk --version exits with 1 after printing its usage
            if (exit != 0 && !command.contains("--version")) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + exit + ":\n" + out);
            }
            return out;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(String.join(" ", command) + " did not start", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static String find(Pattern pattern, String out) {
        Matcher matcher = pattern.matcher(out);
        if (!matcher.find()) {
            throw new IllegalStateException("No '" + pattern + "' in wrk's output:\n" + out);
        }
        return matcher.group(1);
    }

    /** A percentile of the latency distribution that {@code --latency} prints, such as {@code 99%  3.21ms}. */
    private static double latencyMillis(String out, String percentile) {
        Matcher matcher = Pattern.compile("^\\s*" + percentile + "\\s+([\\d.]+)(us|ms|s)\\s*$", Pattern.MULTILINE)
            .matcher(out);
        if (!matcher.find()) {
            throw new IllegalStateException("No " + percentile + " latency in wrk's output:\n" + out);
        }
        double value = Double.parseDouble(matcher.group(1));
        return switch (matcher.group(2)) {
            case "us" -> value / 1_000;
            case "s" -> value * 1_000;
            default -> value;
        };
    }

    /**
     * What wrk measured: requests, their rate, latency percentiles in ms, answers other than 2xx or
     * 3xx, socket errors (connect, read, write and timeouts of 2 s), and the CPU time wrk itself used, in seconds.
     */
    record Result(long requests, double perSecond, double p50, double p99, long non2xx, long socketErrors,
            double cpuSeconds) {

        /** wrk's own CPU per request, in microseconds. */
        double cpuMicros() {
            return this.cpuSeconds * 1_000_000 / this.requests;
        }

    }

}
