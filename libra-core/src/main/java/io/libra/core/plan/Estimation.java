package io.libra.core.plan;

import java.util.List;

/**
 * How a plan's per-region loads were estimated (formats.md {@code estimation}).
 *
 * @param model               {@code mapping} (the paper's fixed mapping), {@code learnt}, {@code measured},
 *                            or {@code cpu/disk} when the dimensions differ, e.g. {@code learnt/mapping}
 * @param windows             windows the estimate used, the current one included
 * @param fitError            relative error predicting node totals the model was not fitted on; NaN when unknown
 * @param lastPredictionError relative error of the previous plan's node forecast against this window; NaN when none
 * @param detail              one line: what was learnt or why the mapping was kept, per dimension
 * @param ownLoad             nodes found to carry load of their own ({@link OwnLoad}); empty when none
 * @param flowError           how a node's forecast error grows with the load moved through it, learnt from the
 *                            checks (an extension of formats.md); null when none was
 */
public record Estimation(String model, int windows, double fitError, double lastPredictionError, String detail,
                         List<OwnLoad> ownLoad, FlowError flowError) {
    public static final String MAPPING = "mapping";
    public static final String LEARNT = "learnt";
    public static final String MEASURED = "measured";

    public Estimation {
        ownLoad = ownLoad == null ? List.of() : List.copyOf(ownLoad);
    }

    public Estimation(String model, int windows, double fitError, double lastPredictionError, String detail,
                      List<OwnLoad> ownLoad) {
        this(model, windows, fitError, lastPredictionError, detail, ownLoad, null);
    }

    public Estimation(String model, int windows, double fitError, double lastPredictionError, String detail) {
        this(model, windows, fitError, lastPredictionError, detail, List.of());
    }

    public Estimation withLastPredictionError(double e) {
        return new Estimation(model, windows, fitError, e, detail, ownLoad, flowError);
    }

    public Estimation withFlowError(FlowError e) {
        return new Estimation(model, windows, fitError, lastPredictionError, detail, ownLoad, e);
    }

    /** The same with a clause added to the detail. */
    public Estimation withClause(String clause) {
        return new Estimation(model, windows, fitError, lastPredictionError, detail == null || detail.isEmpty() ? clause
                : detail + "; " + clause, ownLoad, flowError);
    }
}
