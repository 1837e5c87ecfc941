package io.libra.core.schedule;

import java.util.List;

/**
 * The condition objects one run checks, and the sets a move may pass (§III-B): the paper's
 * three (load, interference, benefit), shared, headroom or own-load relief or a peak trade in place of interference, and
 * below-source in place of the load constraint for a region that cannot be split, and the pair peak in place of
 * both where nothing else moved or split.
 */
final class MigrationConditions {
    final LoadConstraint load;
    final InterferenceConstraint interference;
    final SharedRelief sharedRelief;
    final HeadroomRelief headroomRelief;
    final PeakTrade peakTrade;
    final OwnLoadRelief ownLoadRelief;
    final BelowSource belowSource;
    final BenefitThreshold benefit;
    final SplitBound splitBound;
    final PairPeak pairPeak;
    private final List<MigrationCondition> paper;
    private final List<MigrationCondition> relief;
    private final List<MigrationCondition> headroom;
    private final List<MigrationCondition> trade;
    private final List<MigrationCondition> ownRelief;
    private final List<MigrationCondition> whole;
    private final List<MigrationCondition> descent;

    MigrationConditions(SchedulerConfig config) {
        this.load = new LoadConstraint(config.lambda());
        this.interference = new InterferenceConstraint();
        this.sharedRelief = new SharedRelief(config.lambda());
        this.headroomRelief = new HeadroomRelief(config.lambda());
        this.peakTrade = new PeakTrade(config.lambda());
        this.ownLoadRelief = new OwnLoadRelief(config.lambda());
        this.belowSource = new BelowSource();
        this.benefit = new BenefitThreshold(config.benefitThreshold());
        this.splitBound = new SplitBound(config.splitBound());
        this.pairPeak = new PairPeak(config.benefitThreshold(), config.lambda());
        this.paper = List.of(load, interference, benefit);
        this.relief = List.of(load, sharedRelief, benefit);
        this.headroom = List.of(load, headroomRelief, benefit);
        this.trade = List.of(load, peakTrade, benefit);
        this.ownRelief = List.of(load, ownLoadRelief, benefit);
        this.whole = List.of(belowSource, benefit);
        this.descent = List.of(pairPeak, benefit);
    }

    List<MigrationCondition> paper() {
        return paper;
    }

    List<MigrationCondition> relief() {
        return relief;
    }

    List<MigrationCondition> headroom() {
        return headroom;
    }

    List<MigrationCondition> trade() {
        return trade;
    }

    List<MigrationCondition> ownRelief() {
        return ownRelief;
    }

    List<MigrationCondition> whole() {
        return whole;
    }

    List<MigrationCondition> descent() {
        return descent;
    }
}
