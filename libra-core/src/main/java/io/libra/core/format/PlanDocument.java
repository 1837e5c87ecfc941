package io.libra.core.format;

import io.libra.core.plan.Plan;

/**
 * A {@code libra.plan/v1} document as read: the plan and the SHA-256 of the snapshot file it
 * was made from ("" when the document leaves it empty).
 */
public record PlanDocument(Plan plan, String snapshotSha256) {
}
