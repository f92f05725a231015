package io.github.limiter.autoconfigure;

/**
 * The Spring Boot generation this starter is built for, and the starter of the other generation.
 *
 * <p>Spring Boot 4's; each Spring Boot generation's starter has its own.
 */
final class SupportedSpringBoot {

    /** The oldest supported version: major and minor. */
    static final int[] OLDEST = { 4, 0 };

    /** The newest supported major version. */
    static final int NEWEST_MAJOR = 4;

    /** This starter's coordinates. */
    static final String THIS_STARTER = "io.github.limiter:limiter-spring-boot-starter";

    /** What to use instead, for the other generation. */
    static final String OTHERWISE = "for Spring Boot 3.5, use io.github.limiter:limiter-spring-boot3-starter";

    private SupportedSpringBoot() {
    }

}
