package io.libra.cli;

import io.libra.core.format.PlanDocument;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.LoadModel;
import io.libra.core.Planner;
import io.libra.core.plan.InvalidPlanException;
import io.libra.core.apply.PlanApplier;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.ring.RingApplier;
import io.libra.core.ring.RingLoad;
import io.libra.core.ring.SnapshotRing;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * A plan applied to the snapshot it claims to be for: the estimated state before and the predicted state after.
 * A ring plan ({@code moveToken} actions, from the Cassandra sidecar) is applied to the snapshot's ring; its
 * states are then per node only, and {@code tokensAfter} gives each node's token once the plan has run.
 */
record PlanCheck(Inputs.LoadedSnapshot snapshot, PlanDocument plan, LoadModel before, LoadModel after,
                 Map<String, String> tokensAfter) {

    /** Reads both files and applies the plan; a plan that does not fit is bad input naming the plan's field. */
    static PlanCheck of(Path snapshotFile, Path planFile, PrintWriter err) {
        Inputs.LoadedSnapshot s = Inputs.snapshot(snapshotFile);
        PlanDocument doc = Inputs.plan(planFile);
        if (!doc.snapshotSha256().isEmpty() && !doc.snapshotSha256().equals(s.sha256())) {
            err.println("warning: " + planFile + " was made from another snapshot (sha256 " + abbreviate(doc.snapshotSha256())
                    + ", " + snapshotFile + " is " + abbreviate(s.sha256()) + ")");
            err.flush();
        }
        // the same estimate `libra plan` starts from, so the predicted state matches the plan's
        LoadModel before = Planner.builder().build().estimate(s.snapshot());
        try {
            if (doc.plan().actions().stream().anyMatch(a -> a instanceof MoveTokenAction)) {
                return ring(s, doc, before, snapshotFile);
            }
            return new PlanCheck(s, doc, before, new PlanApplier(EstimationConfig.DEFAULT).apply(before, doc.plan()), Map.of());
        } catch (InvalidPlanException e) {
            throw new BadInputException(planFile + ": " + e.getMessage());
        }
    }

    private static PlanCheck ring(Inputs.LoadedSnapshot s, PlanDocument doc, LoadModel estimate, Path snapshotFile) {
        RingLoad ring;
        try {
            ring = SnapshotRing.of(s.snapshot(), estimate);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(snapshotFile + ": " + e.getMessage()
                    + "; the plan's moveToken actions need the ring they were made for");
        }
        RingApplier.Applied applied = RingApplier.apply(ring, doc.plan().actions());
        Map<String, String> tokens = new TreeMap<>();
        applied.after().nodes().forEach(n -> tokens.put(n.id(), n.tokenKey()));
        return new PlanCheck(s, doc, SnapshotRing.perNode(s.snapshot().nodes(), applied.loadsBefore()),
                SnapshotRing.perNode(s.snapshot().nodes(), applied.loadsAfter()), tokens);
    }

    private static String abbreviate(String sha) {
        return sha.length() > 12 ? sha.substring(0, 12) + "…" : sha;
    }
}
