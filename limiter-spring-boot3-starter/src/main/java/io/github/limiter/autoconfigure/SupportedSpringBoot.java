package io.github.limiter.autoconfigure;

/**
 * The Spring Boot generation this starter is built for, and the starter of the other generation.
 *
 * <p>Spring Boot 3's; each Spring Boot generation's starter has its own.
 */
final class SupportedSpringBoot {

    /** The oldest supported version: major and minor. */
    static final int[] OLDEST = { 3, 5 };

    /** The newest supported major version. */
    static final int NEWEST_MAJOR = 3;

    /** This starter's coordinates. */
    static final String THIS_STARTER = "io.github.limiter:limiter-spring-boot3-starter";

    /** What to use instead, for the other generation. */
    static final String OTHERWISE = "for Spring Boot 4, use io.github.limiter:limiter-spring-boot-starter";

    private SupportedSpringBoot() {
    }

}
