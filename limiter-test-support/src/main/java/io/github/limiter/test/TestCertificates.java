package io.github.limiter.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.HexFormat;

import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/**
 * A certificate authority made up for one test, and a server certificate it signed for
 * {@code 127.0.0.1} and {@code localhost}, valid from a day ago to a day ahead. Both are written as
 * PEM files, as {@code redis-server} and Spring Boot's SSL bundles read them, into a temporary
 * directory of their own that {@link #close()} deletes.
 *
 * <p>Every call of {@link #generate()} makes a new CA with keys of its own, so a second call gives
 * an unrelated CA: a client that trusts it must refuse a server whose certificate the first signed.
 *
 * @since 0.1.0
 */
public final class TestCertificates implements AutoCloseable {

    private final Path directory;

    private final X509Certificate caCertificate;

    private TestCertificates(Path directory, X509Certificate caCertificate) {
        this.directory = directory;
        this.caCertificate = caCertificate;
    }

    /**
     * Generates a new CA and a server certificate signed by it, and writes {@code ca.crt},
     * {@code server.crt} and {@code server.key} (PKCS#8) to a new temporary directory.
     * @return the certificates, whose files the caller deletes with {@link #close()}
     * @since 0.1.0
     */
    public static TestCertificates generate() {
        Path directory = TempDirectory.create("limiter-certificates-");
        try {
            KeyPair caKeys = CertificateIssuer.newKeyPair();
            X509Certificate ca = CertificateIssuer.authority(caKeys,
                    "limiter test CA " + HexFormat.of().toHexDigits(System.nanoTime()));
            KeyPair serverKeys = CertificateIssuer.newKeyPair();
            X509Certificate server = CertificateIssuer.server(serverKeys.getPublic(), ca, caKeys.getPrivate());
            TestCertificates certificates = new TestCertificates(directory, ca);
            writePem(certificates.caCertificateFile(), ca);
            writePem(certificates.serverCertificateFile(), server);
            writePem(certificates.serverKeyFile(), new JcaPKCS8Generator(serverKeys.getPrivate(), null));
            return certificates;
        }
        catch (IOException ex) {
            TempDirectory.delete(directory);
            throw new UncheckedIOException("Could not write the test certificates", ex);
        }
        catch (RuntimeException ex) {
            TempDirectory.delete(directory);
            throw ex;
        }
    }

    /**
     * Returns the CA's certificate, for a client's trust store.
     * @return the self-signed CA certificate
     * @since 0.1.0
     */
    public X509Certificate caCertificate() {
        return this.caCertificate;
    }

    /**
     * Returns the PEM file of the CA's certificate, for a client's trust or {@code tls-ca-cert-file}.
     * @return the path of {@code ca.crt}
     * @since 0.1.0
     */
    public Path caCertificateFile() {
        return this.directory.resolve("ca.crt");
    }

    /**
     * Returns the PEM file of the server's certificate.
     * @return the path of {@code server.crt}
     * @since 0.1.0
     */
    public Path serverCertificateFile() {
        return this.directory.resolve("server.crt");
    }

    /**
     * Returns the PEM file of the server's private key, unencrypted PKCS#8
     * ({@code BEGIN PRIVATE KEY}).
     * @return the path of {@code server.key}
     * @since 0.1.0
     */
    public Path serverKeyFile() {
        return this.directory.resolve("server.key");
    }

    /**
     * Deletes the files. A server still using them keeps running: Redis reads them only at start.
     * @since 0.1.0
     */
    @Override
    public void close() {
        TempDirectory.delete(this.directory);
    }

    private static void writePem(Path file, Object object) throws IOException {
        try (JcaPEMWriter writer = new JcaPEMWriter(Files.newBufferedWriter(file, StandardCharsets.US_ASCII))) {
            writer.writeObject(object);
        }
    }

}
