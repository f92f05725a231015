package io.github.limiter.consumer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small application that uses limiter as a user's would: one dependency, an annotated controller
 * and service, a policy in {@code application.yml}, and event listeners. The same sources are built
 * for each supported stack (Spring Boot 3.5 and 4.x, Lettuce or Jedis) by the modules beside this
 * folder, each with the end-to-end test of that stack.
 */
@SpringBootApplication
public class ConsumerApplication {

    public static void main(String[] args) {
        SpringApplication.run(ConsumerApplication.class, args);
    }

}
