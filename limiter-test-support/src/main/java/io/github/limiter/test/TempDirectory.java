package io.github.limiter.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Directories of their own under {@code java.io.tmpdir} for what a server or a test writes, so that
 * nothing lands in the project's working directory.
 */
final class TempDirectory {

    private TempDirectory() {
    }

    static Path create(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not create a temporary directory", ex);
        }
    }

    /**
     * Deletes a directory and everything in it; a directory already gone is fine.
     */
    static void delete(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

}
