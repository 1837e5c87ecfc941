package io.libra.cassandra.exec;

import io.libra.core.plan.Action;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.Plan;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A plan's id: a digest of what it would do (each move's node and tokens), so that a later window
 * proposing the same moves keeps the id the operator saw, and any other plan gets a new one.
 */
public final class PlanIds {
    private PlanIds() {
    }

    public static String of(Plan plan) {
        StringBuilder sb = new StringBuilder();
        for (Action a : plan.actions()) {
            sb.append(a.type()).append(' ');
            if (a instanceof MoveTokenAction m) {
                sb.append(m.node()).append(' ').append(m.fromToken()).append(' ').append(m.toToken());
            } else {
                sb.append(a);
            }
            sb.append('\n');
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}
