package io.libra.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** The CAs to trust for an https:// capture, from a PKCS12 or JKS file (--trust-store). */
final class TrustStore {
    private TrustStore() {
    }

    /** The TLS context trusting exactly the store's certificates; one line naming the option when it cannot. */
    static SSLContext context(Path file, String passwordEnv) {
        char[] password = password(passwordEnv);
        KeyStore store = load(file, password);
        try {
            if (store.size() == 0) {
                throw new BadInputException(password == null
                        ? "libra: --trust-store: " + file + ": no certificate is readable without the store's password: "
                                + "put it in an environment variable and name it with --trust-store-password-env VAR"
                        : "libra: --trust-store: " + file + ": holds no certificate");
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, tmf.getTrustManagers(), null);
            return tls;
        } catch (GeneralSecurityException e) {
            throw new BadInputException("libra: --trust-store: " + file + ": " + e.getMessage());
        }
    }

    private static KeyStore load(Path file, char[] password) {
        if (!Files.isRegularFile(file)) {
            throw new BadInputException("libra: --trust-store: " + file + ": no such file");
        }
        try {
            return KeyStore.getInstance(new File(file.toString()), password);
        } catch (IOException e) {
            throw new BadInputException("libra: --trust-store: " + file + ": "
                    + (e.getCause() instanceof UnrecoverableKeyException ? "wrong password" : e.getMessage()));
        } catch (GeneralSecurityException e) {
            throw new BadInputException("libra: --trust-store: " + file + ": not a PKCS12 or JKS trust store (" + e.getMessage() + ")");
        }
    }

    private static char[] password(String env) {
        if (env == null) {
            return null;
        }
        String value = System.getenv(env);
        if (value == null) {
            throw new BadInputException("libra: --trust-store-password-env: the environment variable " + env + " is not set");
        }
        return value.toCharArray();
    }
}
