package io.libra.core.schedule;

import io.libra.core.estimate.LoadModel;

/** What the baselines share. */
final class Baselines {
    private Baselines() {
    }

    /** Upper bound on a baseline's moves: they can ping-pong, so they need one. */
    static int cap(LoadModel model, SchedulerConfig config) {
        return config.maxActions() > 0 ? config.maxActions() : 4 * (model.regions().size() + model.nodeCount()) + 64;
    }
}
