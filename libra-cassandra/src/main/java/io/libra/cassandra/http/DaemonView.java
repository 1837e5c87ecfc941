package io.libra.cassandra.http;

import io.libra.cassandra.collect.RingModel;
import io.libra.cassandra.collect.Window;
import io.libra.cassandra.config.SidecarConfig;
import io.libra.cassandra.exec.Job;
import io.libra.core.plan.Plan;
import java.time.Instant;

/**
 * The daemon at one moment, for the API's views.
 *
 * @param window         the last window, or null before the first
 * @param model          the ring model of the last plannable window, or null
 * @param plan           the current plan (null when the window could not be planned on)
 * @param planId         the id a rebalance must name to run {@code plan}, or null
 * @param snapshotJson   the modelled window as a {@code libra.snapshot/v1} document, or null
 * @param snapshotSha256 its SHA-256, which the plan names
 * @param problem        why there is no plan, or null
 * @param estimate       how the last plan estimated load, or null before the first
 * @param observeOnly    a vnode ring: measured and reported, never planned on
 * @param loopAlive      whether the measuring loop still runs
 * @param nodesAtStart   how many nodes answered JMX at startup
 * @param job            the current (or last) job, or null
 * @param memory         what planning remembers (survives a restart), or null when not said
 */
public record DaemonView(SidecarConfig config, Instant startedAt, int windows, Instant firstWindowAt, Window window,
                         RingModel model, Plan plan, String planId, String snapshotJson,
                         String snapshotSha256, String problem, Estimate estimate, boolean observeOnly, boolean loopAlive,
                         int nodesAtStart, boolean paused, Job job, Memory memory) {
    /**
     * The last plan's estimate.
     *
     * @param how          core's estimation block (model, windows used, fit error, last forecast error)
     * @param conservative whether the last forecast missed by more than it claimed, so the ring search was conservative
     * @param kept         earlier windows the sidecar keeps now
     * @param dropped      what that round dropped of the planning memory and why, or null
     */
    public record Estimate(io.libra.core.plan.Estimation how, boolean conservative, int kept, String dropped,
                           double workloadShift, boolean missExplainedByWorkload) {
        /** An estimate whose forecast check measured no workload shift (none checked, or no earlier window). */
        public Estimate(io.libra.core.plan.Estimation how, boolean conservative, int kept, String dropped) {
            this(how, conservative, kept, dropped, Double.NaN, false);
        }
    }

    /**
     * What planning remembers now, restored at start from the file beside the journal.
     *
     * @param windows         earlier windows kept for the estimate
     * @param forecastToCheck whether a carried-out plan's forecast waits for the next window
     * @param restored        what restoring found at start, or null when nothing was saved
     */
    public record Memory(int windows, boolean forecastToCheck, String restored) {
    }
}
