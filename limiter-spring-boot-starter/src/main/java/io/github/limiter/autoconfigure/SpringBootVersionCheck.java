package io.github.limiter.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Fails the start on a Spring Boot generation this starter is not built for, with a message that
 * names the starter to use: a limiter that is silently off is the worst outcome. It runs before the
 * context is refreshed, before any of the starter's classes is looked at: on another generation
 * some would not even load. {@code limiter.enabled=false} skips it, with everything else.
 */
final class SpringBootVersionCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final Log logger = LogFactory.getLog(SpringBootVersionCheck.class);

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        if (context.getEnvironment().getProperty("limiter.enabled", Boolean.class, true)) {
            check(SpringBootVersion.getVersion());
        }
    }

    /**
     * Checks a Spring Boot version.
     * @param version the version, or {@code null} where Spring Boot cannot tell (classes not from
     * its jar); then nothing is checked
     * @throws IllegalStateException if the version is not supported
     */
    static void check(@Nullable String version) {
        if (version == null) {
            logger.debug("Cannot tell the Spring Boot version; not checked");
            return;
        }
        String[] parts = version.split("[.-]");
        int major = number(parts, 0);
        int minor = number(parts, 1);
        int[] oldest = SupportedSpringBoot.OLDEST;
        boolean tooOld = major < oldest[0] || (major == oldest[0] && minor < oldest[1]);
        if (tooOld || major > SupportedSpringBoot.NEWEST_MAJOR) {
            throw new IllegalStateException(SupportedSpringBoot.THIS_STARTER + " supports Spring Boot " + oldest[0]
                    + "." + oldest[1] + " to " + SupportedSpringBoot.NEWEST_MAJOR + ".x, but this application runs "
                    + "Spring Boot " + version + ": rate limiting would not work; " + SupportedSpringBoot.OTHERWISE);
        }
    }

    private static int number(String[] parts, int index) {
        try {
            return (index < parts.length) ? Integer.parseInt(parts[index]) : 0;
        }
        catch (NumberFormatException ex) {
            return 0;
        }
    }

}
