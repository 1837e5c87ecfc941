package io.libra.cli;

import io.libra.core.format.PlanDocument;
import io.libra.core.estimate.EstimationConfig;
import io.libra.core.estimate.LoadModel;
import io.libra.core.Planner;
import io.libra.core.plan.InvalidPlanException;
import io.libra.core.apply.PlanApplier;
import java.io.PrintWriter;
import java.nio.file.Path;

/** A plan applied to the snapshot it claims to be for: the estimated state before and the predicted state after. */
record PlanCheck(Inputs.LoadedSnapshot snapshot, PlanDocument plan, LoadModel before, LoadModel after) {

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
            return new PlanCheck(s, doc, before, new PlanApplier(EstimationConfig.DEFAULT).apply(before, doc.plan()));
        } catch (InvalidPlanException e) {
            throw new BadInputException(planFile + ": " + e.getMessage());
        }
    }

    private static String abbreviate(String sha) {
        return sha.length() > 12 ? sha.substring(0, 12) + "…" : sha;
    }
}
