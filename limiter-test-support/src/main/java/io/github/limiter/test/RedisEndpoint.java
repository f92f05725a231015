package io.github.limiter.test;

import java.nio.file.Path;
import java.util.function.Function;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisSocketConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * How a client reaches one embedded server: a plain TCP port of {@value #HOST}, a TLS port there
 * whose certificate a given CA signed, or a unix socket.
 */
final class RedisEndpoint {

    static final String HOST = "127.0.0.1";

    private final int port;

    private final @Nullable Path socket;

    private final @Nullable Path trustedCertificate;

    private RedisEndpoint(int port, @Nullable Path socket, @Nullable Path trustedCertificate) {
        this.port = port;
        this.socket = socket;
        this.trustedCertificate = trustedCertificate;
    }

    static RedisEndpoint tcp(int port) {
        return new RedisEndpoint(port, null, null);
    }

    /**
     * A TLS port whose server certificate is checked against {@code trustedCertificate} (PEM), host
     * name included, as an application would.
     */
    static RedisEndpoint tls(int port, Path trustedCertificate) {
        return new RedisEndpoint(port, null, trustedCertificate);
    }

    static RedisEndpoint socket(Path socket) {
        return new RedisEndpoint(0, socket, null);
    }

    int port() {
        if (this.socket != null) {
            throw new IllegalStateException("This server listens on the unix socket " + this.socket + " only");
        }
        return this.port;
    }

    Path socket() {
        if (this.socket == null) {
            throw new IllegalStateException("This server listens on port " + this.port + ", not on a unix socket");
        }
        return this.socket;
    }

    boolean isPlainTcp() {
        return this.socket == null && this.trustedCertificate == null;
    }

    <T> T withCommands(Function<RedisCommands<String, String>, T> work) {
        RedisClient client = RedisClient.create(uri());
        client.setOptions(options(ClientOptions.builder()));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return work.apply(connection.sync());
        }
        finally {
            client.shutdown();
        }
    }

    LettuceConnectionFactory newConnectionFactory() {
        RedisConfiguration server = (this.socket != null) ? new RedisSocketConfiguration(this.socket.toString())
                : new RedisStandaloneConfiguration(HOST, this.port);
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server, clientConfiguration());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    private LettuceClientConfiguration clientConfiguration() {
        LettuceClientConfiguration defaults = LettuceClientConfiguration.defaultConfiguration();
        if (isPlainTcp()) {
            return defaults;
        }
        // keep Spring Data's own options (its command timeouts) and change only what this endpoint needs
        ClientOptions options = options(defaults.getClientOptions().map(ClientOptions::mutate)
            .orElseGet(ClientOptions::builder));
        LettuceClientConfigurationBuilder configuration = LettuceClientConfiguration.builder().clientOptions(options);
        if (this.trustedCertificate != null) {
            configuration.useSsl();
        }
        return configuration.build();
    }

    private ClientOptions options(ClientOptions.Builder options) {
        if (this.trustedCertificate != null) {
            options.sslOptions(
                    SslOptions.builder().jdkSslProvider().trustManager(this.trustedCertificate.toFile()).build());
        }
        if (this.socket != null) {
            // Lettuce would set TCP keep-alive options on the socket, which epoll rejects with a warning each
            options.socketOptions(SocketOptions.builder().keepAlive(false).build());
        }
        return options.build();
    }

    private RedisURI uri() {
        if (this.socket != null) {
            return RedisURI.Builder.socket(this.socket.toString()).build();
        }
        return RedisURI.builder().withHost(HOST).withPort(this.port).withSsl(this.trustedCertificate != null).build();
    }

    @Override
    public String toString() {
        if (this.socket != null) {
            return "unix socket " + this.socket;
        }
        return ((this.trustedCertificate != null) ? "TLS port " : "port ") + this.port;
    }

}
