package io.github.limiter.consumer.kotlin

import io.github.limiter.test.RedisServerExtension
import org.springframework.boot.Banner
import org.springframework.boot.WebApplicationType
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import java.util.UUID

/**
 * Starts the application as its own main would, on the tests' Redis, with a key prefix of its own.
 * Redis gets 2 s to decide rather than 100 ms: these tests are about how calls are decided, and a
 * first decision on a loaded machine can take longer (it is then allowed, without headers).
 */
fun startApplication(type: WebApplicationType, vararg sources: Class<*> = arrayOf(KotlinConsumerApplication::class.java)):
        ConfigurableApplicationContext {
    val redis = RedisServerExtension.redis()
    return SpringApplicationBuilder(*sources)
        .web(type)
        .bannerMode(Banner.Mode.OFF)
        .logStartupInfo(false)
        .run(
            "--server.port=0",
            "--spring.data.redis.host=${redis.host()}",
            "--spring.data.redis.port=${redis.port()}",
            "--limiter.key-prefix=kotlin-${UUID.randomUUID()}:",
            "--limiter.redis.timeout=2s",
        )
}
