package io.libra.hbase.balancer;

import io.libra.core.estimate.PredictionCheck;
import io.libra.core.plan.Estimation;
import java.util.Locale;
import java.util.Optional;

/** The run's one line on how loads were estimated, for the master log and the decision log. */
final class EstimationLine {
    private EstimationLine() {
    }

    /** @param measuredStep whether the run took a measured step out of a hold (core {@code MeasuredStep}) */
    static String of(Estimation how, Optional<PredictionCheck> check, boolean measuredStep) {
        if (how == null) {
            return "estimation: none this run (no plan was made)";
        }
        String last = check.map(c -> String.format(Locale.ROOT, "last forecast error %s (%s; it claimed to fix %s)",
                percent(c.error()), c.dimension().label(), percent(c.claimed()))).orElse("last forecast not checked");
        String stance = check.filter(PredictionCheck::explainedByWorkload)
                .map(c -> "not held against the model: the workload itself moved by " + percent(c.shift().share()))
                .orElse(measuredStep ? "a measured step out of a hold"
                        : check.filter(PredictionCheck::conservative).isPresent() ? "conservative" : "not conservative");
        String flow = how.flowError() == null ? "" : String.format(Locale.ROOT,
                ", flow error %.3f per unit of load moved through a server", how.flowError().rate());
        return String.format(Locale.ROOT, "estimation: model %s, %d window(s), fit error %s%s, %s, %s", how.model(),
                how.windows(), percent(how.fitError()), flow, last, stance);
    }

    private static String percent(double share) {
        return Double.isFinite(share) ? String.format(Locale.ROOT, "%.1f%%", 100 * share) : "unknown";
    }
}
