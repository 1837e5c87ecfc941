package io.libra.core.schedule;

import io.libra.core.estimate.GrossFlow;
import io.libra.core.estimate.LoadModel;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Action;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * One run of the cooperative scheduling loop. Each iteration takes the node with the largest
 * deviation δ, its critical dimension, and sheds load from it to the least-loaded nodes in that
 * dimension under the three migration conditions. With lazy scheduling, a hot node's regions
 * are sorted into a schedule candidate queue and a split candidate queue (Stage 2) and one of
 * the queues is executed (Stage 3). The run ends when Δ ≤ λ or no node can act; the actions
 * kept are the shortest prefix within the benefit threshold of the lowest Δ reached, so a plan
 * never leaves Δ higher than it was and carries no tail of moves that do not pay for themselves.
 * With a flow error ({@link SchedulerConfig#flowError}) a prefix's Δ is weighed with the error its
 * moves are expected to bring, so the moves that only trade regions near balance are not kept.
 * With a landing above λ ({@link SchedulerConfig#stopAt}) the run relieves nodes and stops at it instead.
 * Once a check found the last forecast within λ, a hot node none of whose regions passes those
 * conditions takes the one move that lowers the pair's peak most ({@link PairPeak}).
 */
final class CooperativeRun {
    private static final int DESTINATIONS_TRIED = 8;

    private final SchedulerConfig config;
    private final WorkingState state;
    private final MigrationConditions conditions;
    private final SplitProposer splits;
    private final NodeHeap hottest;
    private final NodeHeap worst;
    private final NodeHeap[] coolest = new NodeHeap[2];
    private final List<Integer> exhausted = new ArrayList<>();
    private final BitSet unsplittable = new BitSet();
    private final int cap;
    private final boolean noNewPeak;

    /**
     * @param noNewPeak whether a move may only go where the destination ends no higher in the other
     *                  dimension than the source is now in its critical one (or within 1 + λ): such a
     *                  move cannot raise Δ ({@link #newPeak})
     */
    CooperativeRun(LoadModel model, PlanningContext context, boolean noNewPeak) {
        this(model, context, noNewPeak, GrossFlow.none(model.nodeCount()));
    }

    /** @param flows the gross flow of the actions planned before this run ({@link SchedulerConfig#flowError}) */
    CooperativeRun(LoadModel model, PlanningContext context, boolean noNewPeak, GrossFlow flows) {
        this.noNewPeak = noNewPeak;
        this.config = context.config();
        this.state = new WorkingState(model, context, flows);
        state.refuseCycles();
        this.conditions = new MigrationConditions(config);
        int n = state.nodeCount();
        this.hottest = new NodeHeap(n, state::deviation, true);
        this.worst = new NodeHeap(n, state::deviation, true);
        for (Dimension d : Dimension.values()) {
            coolest[d.ordinal()] = new NodeHeap(n, j -> state.normalised(j, d), false);
        }
        this.splits = new SplitProposer(state, context, d -> state.normalised(coolest[d.ordinal()].peek(), d));
        state.listen(hottest::add);
        state.listen(worst::update);
        state.listen(coolest[0]::update);
        state.listen(coolest[1]::update);
        int regions = model.regions().size();
        this.cap = config.maxActions() > 0 ? config.maxActions() : 16 * (regions + n) + 1024;
    }

    List<Action> schedule() {
        double start = delta();
        double best = start;
        double startAtRisk = atRisk();
        double bestAtRisk = startAtRisk;
        // each prefix that lowered Δ, in order: {length, Δ at risk}
        List<double[]> lowered = new ArrayList<>();
        boolean progressSinceReset = false;
        while (state.actions().size() < cap) {
            if (hottest.isEmpty() || state.deviation(hottest.peek()) <= config.stopAt()) {
                if (!progressSinceReset || exhausted.isEmpty() || delta() <= config.stopAt()) {
                    break;
                }
                exhausted.forEach(hottest::add);
                exhausted.clear();
                progressSinceReset = false;
                continue;
            }
            int source = hottest.peek();
            if (!step(source, state.critical(source)) && !descend(source)) {
                hottest.remove(source);
                exhausted.add(source);
                continue;
            }
            progressSinceReset = true;
            double now = delta();
            if (now < best - 1e-12) {
                best = now;
                double risk = atRisk();
                bestAtRisk = Math.min(bestAtRisk, risk);
                lowered.add(new double[] {state.actions().size(), risk});
            }
        }
        int kept = worthKeeping(lowered, startAtRisk, bestAtRisk, config.benefitThreshold(), config.stopAt());
        return new ArrayList<>(state.actions().subList(0, kept));
    }

    /**
     * The shortest prefix within the benefit threshold of the lowest Δ, none when the whole run gains
     * no more than it from {@code start}: actions that together gain less than the threshold says
     * outweighs the cost of moving, as one region must, are not worth their moves (ycsb-f seed 23
     * under node-speed reached Δ 0.0646 in 21 actions and 0.0628 in 317). A run that reached λ keeps
     * the shortest prefix within λ, so Theorem 1 still holds.
     */
    static int worthKeeping(List<double[]> lowered, double start, double best, double threshold, double lambda) {
        if (best > lambda && start - best <= threshold) {
            return 0;
        }
        double bound = best <= lambda ? Math.min(best + threshold, lambda) : best + threshold;
        for (double[] p : lowered) {
            if (p[1] <= bound) {
                return (int) p[0];
            }
        }
        return 0;
    }

    private double delta() {
        return state.deviation(worst.peek());
    }

    /** Δ with the error the moves' gross flow is expected to bring ({@link WorkingState#atRisk}); Δ without a flow error. */
    private double atRisk() {
        return config.flowError() > 0 ? state.atRisk(config.flowError()) : delta();
    }

    private boolean step(int source, Dimension d) {
        return config.lazy() ? lazyStep(source, d) : eagerStep(source, d);
    }

    /** Stages 2 and 3 of lazy scheduling for one hot node. */
    private boolean lazyStep(int source, Dimension d) {
        List<Integer> scheduled = new ArrayList<>();
        List<Integer> splitQueue = new ArrayList<>();
        for (int r : state.regionsByLoad(source, d)) {
            if (state.normalised(source, d) <= 1.0 || !conditions.benefit.holds(Candidate.of(state, r, source, -1, d))) {
                break;
            }
            if (!scheduled.isEmpty() && (worst.peek() != source || state.critical(source) != d)) {
                break; // another node or dimension is now critical: let the next iteration pick it
            }
            if (tryMove(r, source, d, splitQueue)) {
                scheduled.add(r);
            }
        }
        if (!scheduled.isEmpty() || splitQueue.isEmpty()) {
            return !scheduled.isEmpty() || relieveOwnLoad(source, d);
        }
        return splitInstead(source, d, splitQueue);
    }

    /**
     * No region passed: on a node hot with load of its own ({@link OwnLoadRelief}) the heaviest
     * region that some destination takes within 1 + λ in both dimensions goes there.
     */
    private boolean relieveOwnLoad(int source, Dimension d) {
        if (!state.hasOwnLoad(source, d)) {
            return false;
        }
        for (int r : state.regionsByLoad(source, d)) {
            if (state.normalised(source, d) <= 1.0 || !conditions.benefit.holds(Candidate.of(state, r, source, -1, d))) {
                return false;
            }
            if (moveToFirst(r, source, d, c -> conditions.load.holds(c) && conditions.ownLoadRelief.holds(c)
                    ? conditions.ownRelief() : null) || peakTrade(r, source, d)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Stage 3-1: no lighter region can be scheduled, so if the split candidates carry a
     * significant load, split them (deferred splitting: while moves still help, they win).
     */
    private boolean splitInstead(int source, Dimension d, List<Integer> splitQueue) {
        double splitLoad = 0;
        for (int r : splitQueue) {
            splitLoad += state.share(r, d, source);
        }
        double excess = state.normalised(source, d) - 1;
        if (splitLoad < Math.min(excess, config.splitBound())) {
            return false;
        }
        List<SplitProposer.Proposal> proposals = splits.propose(splitQueue, source, d, unsplittable);
        if (proposals.isEmpty()) {
            return false;
        }
        double covered = 0;
        for (SplitProposer.Proposal p : proposals) {
            if (covered >= excess) {
                break;
            }
            covered += splits.carve(p, d, excess - covered, unsplittable);
        }
        return true;
    }

    /**
     * Where no region of the source moved or split under the conditions above: of its regions and the
     * coolest nodes in either dimension, the move that lowers the higher peak of the two nodes the
     * most ({@link PairPeak}), chosen by its gain rather than the region's load, since a destination
     * now may end anywhere below the source's peak and the first region that fits seldom gains most.
     */
    private boolean descend(int source) {
        if (!noNewPeak || !config.forecastChecked()) {
            // a run that may raise a peak would undo the descent move by move; an unchecked
            // estimate errs most near the peak, where the descent lands destinations
            return false;
        }
        Candidate best = null;
        double most = conditions.pairPeak.threshold(); // a gain above it is the first half of PairPeak.holds
        int[] destinations = coolestInEither();
        for (int r : state.regionsOn(source)) {
            for (int dst : destinations) {
                if (dst == source || !state.allowed(r, dst)) {
                    continue;
                }
                Candidate c = Candidate.of(state, r, source, dst, state.critical(source));
                double gain = PairPeak.gain(c);
                if (gain > most && conditions.pairPeak.lands(c) && conditions.benefit.holds(c)) {
                    best = c;
                    most = gain;
                }
            }
        }
        if (best == null) {
            return false;
        }
        state.move(best, conditions.descent(), Notes.critical(state, source, best.critical()));
        return true;
    }

    /** The coolest nodes in CPU and in disk, each once. */
    private int[] coolestInEither() {
        return IntStream.concat(Arrays.stream(coolest[0].top(DESTINATIONS_TRIED)),
                Arrays.stream(coolest[1].top(DESTINATIONS_TRIED))).distinct().toArray();
    }

    /** The paper's basic loop: move the first region meeting all three conditions, else split. */
    private boolean eagerStep(int source, Dimension d) {
        List<Integer> splitQueue = new ArrayList<>();
        for (int r : state.regionsByLoad(source, d)) {
            if (!conditions.benefit.holds(Candidate.of(state, r, source, -1, d))) {
                break;
            }
            if (tryMove(r, source, d, splitQueue)) {
                return true;
            }
        }
        for (SplitProposer.Proposal p : splits.propose(splitQueue, source, d, unsplittable)) {
            if (splits.carve(p, d, 0, unsplittable) > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Moves region r if a destination meets the migration conditions; otherwise queues it as a
     * split candidate when it exceeds λ/2 and splitting may help, unless this run moved it
     * ({@link WorkingState#movedInRun}).
     */
    private boolean tryMove(int r, int source, Dimension d, List<Integer> splitQueue) {
        Candidate here = Candidate.of(state, r, source, -1, d);
        boolean interferes = !conditions.interference.holds(here);
        boolean splittable = config.splitting() && !unsplittable.get(r) && state.splittable(r);
        if (interferes && state.normalised(source, d.other()) <= 1.0) {
            return !splittable && moveWhole(r, source, d);
        }
        if (moveToDestination(r, d, source, interferes)) {
            return true;
        }
        if (conditions.splitBound.holds(here) && splittable) {
            if (!state.movedInRun(r)) {
                splitQueue.add(r);
            }
        } else if (!splittable) {
            return moveWhole(r, source, d);
        }
        return false;
    }

    /** A region that cannot be split moves whole when some node stays below the source after taking it. */
    private boolean moveWhole(int r, int source, Dimension d) {
        return moveToFirst(r, source, d, c -> conditions.belowSource.holds(c) ? conditions.whole() : null);
    }

    /**
     * Moves the region to the least-loaded node in d that takes it under the load constraint,
     * with the interference constraint holding on both nodes, or else with shared relief, or with
     * headroom relief once a check found the last forecast within λ: headroom relief fills the
     * destination up to 1 + λ on the estimate of the region's other dimension there, which a first
     * plan made on one window has not yet seen checked; failing all of them, a {@link #peakTrade}.
     */
    private boolean moveToDestination(int r, Dimension d, int source, boolean interferes) {
        return moveToFirst(r, source, d, c -> !conditions.load.holds(c) ? null
                : !interferes && conditions.interference.holds(c) ? conditions.paper()
                : conditions.sharedRelief.holds(c) ? conditions.relief()
                : config.forecastChecked() && conditions.headroomRelief.holds(c) ? conditions.headroom() : null)
                || peakTrade(r, source, d);
    }

    /**
     * Once a check found the last forecast within λ, and no destination takes region r under the
     * conditions before: the first that does under a {@link PeakTrade}.
     */
    private boolean peakTrade(int r, int source, Dimension d) {
        return config.forecastChecked() && moveToFirst(r, source, d,
                c -> conditions.load.holds(c) && conditions.peakTrade.holds(c) ? conditions.trade() : null);
    }

    /**
     * Moves region r to the first of the coolest nodes in d (other than the source, allowed by the
     * placement rule) for which {@code passes} names the conditions the move passed; null skips it.
     */
    private boolean moveToFirst(int r, int source, Dimension d, Function<Candidate, List<MigrationCondition>> passes) {
        for (int dst : coolest[d.ordinal()].top(DESTINATIONS_TRIED)) {
            if (dst == source || !state.allowed(r, dst)) {
                continue;
            }
            Candidate c = Candidate.of(state, r, source, dst, d);
            List<MigrationCondition> passed = noNewPeak && newPeak(c) ? null : passes.apply(c);
            if (passed != null) {
                state.move(c, passed, Notes.critical(state, source, d));
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the move would lift the destination in the other dimension above both 1 + λ and the
     * source's load now in the critical one: above the peak it relieves. The paper's conditions do
     * not look at the destination's other dimension; on nodes of unequal speed the coolest in CPU
     * are often the hottest in disk, and moves there only trade one peak for a higher one.
     */
    private boolean newPeak(Candidate c) {
        Dimension o = c.critical().other();
        return c.destinationLoad(o) + c.shareAtDestination(o) > Math.max(1 + config.lambda(), c.sourceLoad(c.critical()));
    }
}
