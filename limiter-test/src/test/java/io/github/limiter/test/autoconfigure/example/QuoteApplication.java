package io.github.limiter.test.autoconfigure.example;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small application with rate-limited methods, tested with the test kit as a team would test its
 * own.
 */
@SpringBootApplication
public class QuoteApplication {

}
