package io.github.limiter.test;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Issues the certificates of {@link TestCertificates} with BouncyCastle: EC P-256 keys, which are
 * quick to generate and which both the JDK and redis-server's OpenSSL accept.
 */
final class CertificateIssuer {

    private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";

    // a day either side, so that clocks a little apart do not matter
    private static final Duration VALIDITY = Duration.ofDays(1);

    private static final SecureRandom RANDOM = new SecureRandom();

    private CertificateIssuer() {
    }

    static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        }
        catch (GeneralSecurityException ex) {
            throw new IllegalStateException("This JDK cannot generate EC P-256 keys", ex);
        }
    }

    /**
     * A self-signed certificate authority.
     */
    static X509Certificate authority(KeyPair keys, String commonName) {
        X500Name name = new X500Name("CN=" + commonName);
        try {
            X509v3CertificateBuilder certificate = certificate(name, name, keys.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            return sign(certificate, keys.getPrivate());
        }
        catch (CertIOException ex) {
            throw new IllegalStateException("Could not issue a test CA certificate", ex);
        }
    }

    /**
     * A server certificate for {@code 127.0.0.1} and {@code localhost}, so that a client that checks
     * the host name accepts it on either.
     */
    static X509Certificate server(PublicKey key, X509Certificate authority, PrivateKey authorityKey) {
        GeneralNames names = new GeneralNames(new GeneralName[] { new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.dNSName, "localhost") });
        try {
            X509v3CertificateBuilder certificate = certificate(X500Name.getInstance(
                    authority.getSubjectX500Principal().getEncoded()), new X500Name("CN=localhost"), key)
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                .addExtension(Extension.subjectAlternativeName, false, names)
                .addExtension(Extension.authorityKeyIdentifier, false,
                        new JcaX509ExtensionUtils().createAuthorityKeyIdentifier(authority));
            return sign(certificate, authorityKey);
        }
        catch (CertIOException | GeneralSecurityException ex) {
            throw new IllegalStateException("Could not issue a test server certificate", ex);
        }
    }

    private static X509v3CertificateBuilder certificate(X500Name issuer, X500Name subject, PublicKey key)
            throws CertIOException {
        Instant now = Instant.now();
        try {
            return new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, RANDOM).add(BigInteger.ONE),
                    Date.from(now.minus(VALIDITY)), Date.from(now.plus(VALIDITY)), subject, key)
                .addExtension(Extension.subjectKeyIdentifier, false,
                        new JcaX509ExtensionUtils().createSubjectKeyIdentifier(key));
        }
        catch (GeneralSecurityException ex) {
            throw new IllegalStateException("This JDK has no SHA-1 for key identifiers", ex);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder certificate, PrivateKey issuerKey) {
        try {
            return new JcaX509CertificateConverter()
                .getCertificate(certificate.build(new JcaContentSignerBuilder(SIGNATURE_ALGORITHM).build(issuerKey)));
        }
        catch (OperatorCreationException | GeneralSecurityException ex) {
            throw new IllegalStateException("Could not sign a test certificate", ex);
        }
    }

}
