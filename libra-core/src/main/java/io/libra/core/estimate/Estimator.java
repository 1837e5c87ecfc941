package io.libra.core.estimate;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Dimension;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import io.libra.core.model.RegionCounters;
import io.libra.core.plan.Estimation;
import io.libra.core.plan.OwnLoad;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.UnaryOperator;

/**
 * Estimates per-region load from the current window and earlier ones (oldest first). Per
 * dimension it prefers, in order: what the adapter measured per region; a cost model learnt
 * from node totals across windows, when it beats the paper's mapping on held-out nodes; the
 * mapping. Each node's measured total is then shared among its regions in proportion to the
 * chosen per-region cost, as the paper does with its mapping.
 */
public final class Estimator {
    /** Rounds of refitting the weights with the nodes' own loads taken out ({@link #refined}). */
    private static final int REFITS = 2;
    private final EstimationConfig config;
    private final CostFeatures features;
    private final boolean learn;

    public Estimator(EstimationConfig config) {
        this(config, true);
    }

    /** @param learn false keeps the paper's fixed mapping (to compare against, or when told to) */
    public Estimator(EstimationConfig config, boolean learn) {
        this.config = config;
        this.features = new CostFeatures(config.disk().readFloorBytes());
        this.learn = learn;
    }

    /**
     * The estimated load model and how it was obtained.
     *
     * @param rival the same window with disk shared by a block cache that explains it about as well
     *              as the linear model without beating it ({@link CacheModel#rivalsLinear}), where the
     *              linear model predicts better than a constant per node ({@link CostFit#tooAlike}); else with
     *              speeds of their own (CPU or disk) on nodes whose total strays while no window has shown them
     *              to have one ({@link NodeBackgrounds#untoldSpeeds}); else, where one window chose a
     *              background the same on each node ({@link BackgroundShape}), with backgrounds in proportion
     *              to capacity; else a block cache whose error is
     *              within {@link CacheModel#RIVAL_WITHIN} times the linear model's ({@link CacheModel#nearLinear});
     *              else empty
     * @param shapes how the learnt background differs between nodes of unequal size, per dimension
     */
    public record Estimate(LoadModel model, Estimation estimation, CostFit cpu, CostFit disk, NodeBackgrounds cpuOwn,
                           NodeBackgrounds diskOwn, Optional<CacheModel> cache, Optional<Rival> rival,
                           BackgroundShape.Both shapes) {
        public Estimate(LoadModel model, Estimation estimation, CostFit cpu, CostFit disk, NodeBackgrounds cpuOwn,
                        NodeBackgrounds diskOwn, Optional<CacheModel> cache, BackgroundShape.Both shapes) {
            this(model, estimation, cpu, disk, cpuOwn, diskOwn, cache, Optional.empty(), shapes);
        }
    }

    /**
     * A second model of the window that the window cannot tell from the one in use.
     *
     * @param subject  what the model in use assumes, as the reason names it
     * @param ours     the model in use, in short
     * @param theirs   the rival, in short
     * @param describe what the rival assumes
     * @param between  a model halfway between the two, where their readings of the same residuals can be
     *                 split (a node's speed against its regions' cost); a plan made there may fall less far behind
     *                 under either than the plans made on each
     * @param ownLoad  the nodes the rival (and the model between) finds load of their own on: a plan made on
     *                 it may relieve them as such ({@code OwnLoadRelief}), though the model in use found none
     */
    public record Rival(LoadModel model, String subject, String ours, String theirs, String describe,
                        Optional<LoadModel> between, List<OwnLoad> ownLoad) {
        public Rival {
            ownLoad = List.copyOf(ownLoad);
        }

        /** The block cache that rivals the linear disk model ({@link CacheModel#rivalsLinear}). */
        static Rival cache(LoadModel model, CacheModel c, List<OwnLoad> ownLoad) {
            return new Rival(model, "linear disk model", "linear model", "block cache", c.describe(), Optional.empty(),
                    ownLoad);
        }

        /** The same rival, and the model between, each restricted as {@code restrict} does (by an adapter). */
        public Rival on(UnaryOperator<LoadModel> restrict) {
            return new Rival(restrict.apply(model), subject, ours, theirs, describe, between.map(restrict), ownLoad);
        }
    }

    /** @throws History.MismatchException when a window does not belong with the current one */
    public Estimate estimate(ClusterSnapshot now, List<ClusterSnapshot> history) {
        return estimate(now, history, List.of());
    }

    /**
     * As {@link #estimate(ClusterSnapshot, List)}, keeping the load of their own that an earlier
     * estimate found on nodes ({@code remembered}, as the last plan carries it) where these windows
     * cannot show it again ({@link NodeBackgrounds}).
     */
    public Estimate estimate(ClusterSnapshot now, List<ClusterSnapshot> history, List<OwnLoad> remembered) {
        History.check(now, history);
        List<ClusterSnapshot> windows = new ArrayList<>(history);
        windows.add(now);
        Shaped shaped = shapes(now, windows);
        BackgroundShape.Both shapes = shaped.shapes();
        List<NodeSample> samples = shaped.samples();
        Fitted cpuFit = refined(now, shaped.cpu(), samples, kinds(remembered, Dimension.CPU));
        CostFit cpu = cpuFit.fit();
        NodeBackgrounds cpuOwn = cpuFit.own();
        CostFit diskFirst = shaped.disk();
        Optional<CacheModel> candidate = learn && !LoadSharing.allMeasured(now, Dimension.DISK)
                ? CacheModel.candidate(windows, diskFirst.fitError()) : Optional.empty();
        Fitted linear = refined(now, diskFirst, samples, kinds(remembered, Dimension.DISK));
        Optional<CacheSpeeds.Learnt> sped = learn && !LoadSharing.allMeasured(now, Dimension.DISK)
                ? CacheSpeeds.learn(windows, candidate, diskFirst, samples) : Optional.empty();
        NodeBackgrounds cacheOwn = sped.map(CacheSpeeds.Learnt::speeds).orElse(NodeBackgrounds.NONE);
        Optional<CacheModel> cache = cache(candidate, sped, CacheModel::beatsLinear, l -> l.beats(linear.error()));
        // a block cache chosen shares disk by itself: nodes then have no more of their own than a disk speed
        Fitted diskFit = cache.isPresent() ? new Fitted(diskFirst, cacheOwn, diskFirst.fitError()) : linear;
        CostFit disk = diskFit.fit();
        NodeBackgrounds diskOwn = diskFit.own();
        Estimate partial = new Estimate(null, null, cpu, disk, cpuOwn, diskOwn, cache, shapes);
        LoadModel model = share(now, partial);
        String cpuModel = label(now, cpu);
        String diskModel = cache.isPresent() ? Estimation.LEARNT : label(now, disk);
        double diskError = cache.map(c -> c.forecastError(windows.size())).orElse(diskFit.error());
        Estimation e = new Estimation(cpuModel.equals(diskModel) ? cpuModel : cpuModel + "/" + diskModel,
                windows.size(), fitError(now, shaped.claimed(Dimension.CPU, cpuFit.error(), windows.size()),
                        shaped.claimed(Dimension.DISK, diskError, windows.size())), Double.NaN,
                "cpu: " + detail(now, cpu, cpuOwn, shapes.cpu()) + "; disk: "
                        + cache.map(c -> c.describe() + (cacheOwn.detail().isEmpty() ? "" : ", " + cacheOwn.detail()))
                                .orElseGet(() -> detail(now, disk, diskOwn, shapes.disk())),
                ownLoad(now, cpuOwn, diskOwn));
        // where a constant per node predicts the totals as well as the linear model, a cache no better than that
        // has nothing in the window behind its forecasts (`calm` seed 10 under disk-speed: any move 0.87, no plan for 3 windows)
        boolean rivalled = cache.isEmpty() && !diskFirst.tooAlike();
        Function<Optional<CacheModel>, Optional<Rival>> cacheRival = c -> c.filter(x -> rivalled).map(x -> Rival.cache(
                share(now, new Estimate(null, null, cpu, disk, cpuOwn, cacheOwn, Optional.of(x), shapes)), x,
                ownLoad(now, cpuOwn, cacheOwn)));
        // a cache as good as the linear model first; then nodes' speeds; the other background shape; a cache up to twice as far off
        Optional<Rival> rival = cacheRival.apply(cache(candidate, sped, CacheModel::rivalsLinear, l -> l.rivals(linear.error())))
                .or(() -> speedRival(now, samples, partial))
                .or(() -> shapeRival(now, shaped, windows.size()))
                .or(() -> cacheRival.apply(cache(candidate, sped, CacheModel::nearLinear, l -> l.near(linear.error()))));
        return new Estimate(model, e, cpu, disk, cpuOwn, diskOwn, cache, rival, shapes);
    }

    /**
     * The block cache that passes {@code fitted} as fitted on the measured totals (refitted with the
     * disks' speeds out, when those were learnt), or else the refit where it passes {@code refitted}:
     * a cache fitted where disks run at unequal speeds may lose to the linear model until the speeds
     * are taken out.
     */
    private static Optional<CacheModel> cache(Optional<CacheModel> candidate, Optional<CacheSpeeds.Learnt> sped,
                                              Predicate<CacheModel> fitted, Predicate<CacheSpeeds.Learnt> refitted) {
        Optional<CacheModel> refit = sped.map(CacheSpeeds.Learnt::cache);
        return candidate.filter(fitted).map(c -> refit.orElse(c))
                .or(() -> sped.filter(refitted).map(CacheSpeeds.Learnt::cache));
    }

    /**
     * The window shared with a speed of their own on the nodes that stray while no window has shown
     * them to have one ({@link NodeBackgrounds#untoldSpeeds}), in CPU and, without a block cache, in disk.
     */
    private Optional<Rival> speedRival(ClusterSnapshot now, List<NodeSample> samples, Estimate e) {
        if (!learn) {
            return Optional.empty();
        }
        Optional<NodeBackgrounds> cpu = untold(now, e.cpu(), samples, e.cpuOwn());
        Optional<NodeBackgrounds> disk = e.cache().isPresent() ? Optional.empty() : untold(now, e.disk(), samples, e.diskOwn());
        if (cpu.isEmpty() && disk.isEmpty()) {
            return Optional.empty();
        }
        String subject = cpu.isPresent() && disk.isPresent() ? "CPU and disk" : cpu.isPresent() ? "CPU" : "disk";
        String describe = cpu.isPresent() && disk.isPresent()
                ? cpu.get().detail() + " in CPU and a " + disk.get().detail() + " in disk"
                : cpu.or(() -> disk).get().detail();
        LoadModel between = sharedWith(now, e, cpu.map(s -> s.halfway(e.cpuOwn())),
                disk.map(s -> s.halfway(e.diskOwn())));
        return Optional.of(new Rival(sharedWith(now, e, cpu, disk), subject + " residuals riding with the regions",
                "regions' residuals", "node speeds", describe, Optional.of(between),
                ownLoad(now, cpu.orElse(e.cpuOwn()), disk.orElse(e.diskOwn()))));
    }

    /**
     * The window shared with each background in proportion to capacity, where one window chose the
     * same background on each node in either dimension: a choice judged on the one layout it explains.
     */
    private Optional<Rival> shapeRival(ClusterSnapshot now, Shaped s, int windows) {
        if (windows > 1 || s.shapes().equals(BackgroundShape.Both.CAPACITY)) { // without learning, always CAPACITY
            return Optional.empty();
        }
        LoadModel byCapacity = share(now, new Estimate(null, null, s.cpuByCapacity(), s.diskByCapacity(),
                NodeBackgrounds.NONE, NodeBackgrounds.NONE, Optional.empty(), BackgroundShape.Both.CAPACITY));
        return Optional.of(new Rival(byCapacity, "background the same on each node", "same background",
                "background by capacity", "background in proportion to each node's capacity", Optional.empty(), List.of()));
    }

    /** {@code now} shared by {@code e}'s cost fits with these own loads in place of {@code e}'s, where present. */
    private LoadModel sharedWith(ClusterSnapshot now, Estimate e, Optional<NodeBackgrounds> cpu,
                                 Optional<NodeBackgrounds> disk) {
        return share(now, new Estimate(null, null, e.cpu(), e.disk(), cpu.orElse(e.cpuOwn()), disk.orElse(e.diskOwn()),
                e.cache(), e.shapes()));
    }

    /** {@link NodeBackgrounds#untoldSpeeds} in {@code fit}'s dimension, unless it is measured per region. */
    private static Optional<NodeBackgrounds> untold(ClusterSnapshot now, CostFit fit, List<NodeSample> samples,
                                                    NodeBackgrounds chosen) {
        return LoadSharing.allMeasured(now, fit.dimension()) ? Optional.empty()
                : NodeBackgrounds.untoldSpeeds(fit, samples, chosen);
    }

    /** {@code window}'s node totals shared among its regions by {@code e}'s cost model (an earlier window, replayed). */
    public LoadModel share(ClusterSnapshot window, Estimate e) {
        LoadSharing.Rule disk = e.cache().map(c -> cacheRule(window, c))
                .orElseGet(() -> rule(e.disk(), e.diskOwn(), e.shapes().disk()));
        LoadModel model = LoadSharing.share(window, rule(e.cpu(), e.cpuOwn(), e.shapes().cpu()), disk);
        model = withSpeeds(model, window, Dimension.CPU, e.cpuOwn());
        model = withSpeeds(model, window, Dimension.DISK, e.diskOwn());
        model = model.withCosts(new RegionCosts(cost(e.cpu()), e.cache().<ToDoubleFunction<RegionCounters>>map(
                c -> c::uncachedDisk).orElseGet(() -> cost(e.disk()))));
        return e.cache().map(model::withCache).orElse(model);
    }

    /** A region's cost by its counters under {@code fit}: its learnt weights, else the paper's mapping. */
    private ToDoubleFunction<RegionCounters> cost(CostFit fit) {
        RegionCosts mapping = RegionCosts.mapping(config);
        return fit.learnt() ? c -> fit.cost(features.of(c))
                : fit.dimension() == Dimension.CPU ? mapping.cpu() : mapping.disk();
    }

    /** {@code model} where the nodes {@code own} found a speed of their own in d run region work at it. */
    private static LoadModel withSpeeds(LoadModel model, ClusterSnapshot window, Dimension d, NodeBackgrounds own) {
        return own.speeds().isEmpty() ? model
                : model.withSpeeds(d, window.nodes().stream().mapToDouble(n -> own.speed(n.id())).toArray());
    }

    /** Disk shared by each region's cost on the node it sits on, with the cache model's background. */
    private static LoadSharing.Rule cacheRule(ClusterSnapshot window, CacheModel c) {
        Map<String, Double> reads = new HashMap<>();
        for (Region r : window.regions()) {
            reads.merge(r.node(), c.readTerm(r), Double::sum);
        }
        return new LoadSharing.Rule(r -> c.regionDisk(r, reads.getOrDefault(r.node(), 0.0)), c.background());
    }

    /** One dimension's cost fit and the nodes' own loads found on its residuals. */
    private record Fitted(CostFit fit, NodeBackgrounds own, double first) {
        /**
         * The held-out error of the weights fitted on the measured totals, with what the own loads leave
         * of it: the refit's own error is taken with the own loads out, so it would count them twice.
         */
        double error() {
            return first * own.errorLeft();
        }
    }

    private CostFit fit(Dimension d, List<NodeSample> samples) {
        return CostFit.fit(d, samples, CostFeatures.prior(d, config), learn);
    }

    /**
     * {@code first} and the nodes' own loads, fitted in turn: the weights are refitted on the node
     * totals with the own loads found taken out ({@link NodeBackgrounds#takenOut}), and the own loads
     * found again on the refit's residuals, so that nodes of speeds of their own do not bend the
     * weights, and the weights' error does not hide the speeds.
     */
    private Fitted refined(ClusterSnapshot now, CostFit first, List<NodeSample> samples,
                           Map<String, OwnLoad.Kind> remembered) {
        Dimension d = first.dimension();
        CostFit fit = first;
        NodeBackgrounds own = own(now, fit, samples, remembered);
        for (int i = 0; i < REFITS && !own.speeds().isEmpty(); i++) {
            fit = fit(d, own.takenOut(d, samples));
            NodeBackgrounds again = own(now, fit, samples, remembered);
            boolean settled = again.settledFrom(own);
            own = again;
            if (settled) {
                break; // another refit would change little
            }
        }
        return new Fitted(fit, own, first.fitError());
    }

    /** Nodes' own backgrounds, when learning and the dimension is estimated rather than measured per region. */
    private NodeBackgrounds own(ClusterSnapshot now, CostFit fit, List<NodeSample> samples,
                                Map<String, OwnLoad.Kind> remembered) {
        return learn && !LoadSharing.allMeasured(now, fit.dimension())
                ? NodeBackgrounds.of(fit.dimension(), fit, samples, remembered) : NodeBackgrounds.NONE;
    }

    /** What {@code remembered} says each node has of its own in dimension {@code d}. */
    private static Map<String, OwnLoad.Kind> kinds(List<OwnLoad> remembered, Dimension d) {
        Map<String, OwnLoad.Kind> out = new HashMap<>();
        for (OwnLoad o : remembered) {
            OwnLoad.Kind k = o.kind(d);
            if (k != null) {
                out.put(o.id(), k);
            }
        }
        return out;
    }

    /** Each node with load of its own in either dimension, in the window's node order. */
    private static List<OwnLoad> ownLoad(ClusterSnapshot now, NodeBackgrounds cpu, NodeBackgrounds disk) {
        Map<String, OwnLoad.Kind> c = cpu.kinds();
        Map<String, OwnLoad.Kind> d = disk.kinds();
        List<OwnLoad> out = new ArrayList<>();
        for (Node n : now.nodes()) {
            if (c.containsKey(n.id()) || d.containsKey(n.id())) {
                out.add(new OwnLoad(n.id(), c.get(n.id()), d.get(n.id())));
            }
        }
        return out;
    }

    /** How {@code fit}'s dimension is shared: by its cost ({@link #cost}), with its background where learnt. */
    private LoadSharing.Rule rule(CostFit fit, NodeBackgrounds own, BackgroundShape shape) {
        LoadSharing.RegionCost cost = LoadSharing.byCounters(cost(fit));
        if (!fit.learnt()) {
            return new LoadSharing.Rule(cost, 0, own);
        }
        double phi = fit.weights()[CostFeatures.FOLLOWERS];
        double[] prior = CostFeatures.prior(fit.dimension(), config);
        return new LoadSharing.Rule(cost, fit.background(), own, s -> Followers.of(s, fit.dimension(), phi, prior), shape);
    }

    private static String label(ClusterSnapshot now, CostFit fit) {
        if (LoadSharing.allMeasured(now, fit.dimension())) {
            return Estimation.MEASURED;
        }
        return fit.learnt() ? Estimation.LEARNT : Estimation.MAPPING;
    }

    private static String detail(ClusterSnapshot now, CostFit fit, NodeBackgrounds own, BackgroundShape shape) {
        if (LoadSharing.allMeasured(now, fit.dimension())) {
            return "measured per region";
        }
        String aside = LoadSharing.setAside(now, fit.dimension());
        String fitted = fit.learnt() && fit.background() > 0 && now.hasCapacities()
                ? fit.detail() + " (per node of mean size; " + shape.describe() + ")" : fit.detail();
        fitted = own.detail().isEmpty() ? fitted : fitted + "; " + own.detail();
        return aside.isEmpty() ? fitted : fitted + "; " + aside;
    }

    /**
     * Held-out error of what is used (each fit's with what the nodes' own loads leave of it); NaN where
     * regions are measured (nothing was fitted).
     */
    private static double fitError(ClusterSnapshot now, double cpu, double disk) {
        double c = LoadSharing.allMeasured(now, Dimension.CPU) ? Double.NaN : cpu;
        double d = LoadSharing.allMeasured(now, Dimension.DISK) ? Double.NaN : disk;
        if (Double.isNaN(c)) {
            return d;
        }
        return Double.isNaN(d) ? c : Math.max(c, d);
    }

    /**
     * The background's shape in each dimension ({@link BackgroundShape}): in proportion to capacity,
     * unless the same background on each node predicts held-out nodes better by more than their
     * errors' noise ({@link CostFit#sameError}). Only a cluster that declares capacities has a choice.
     */
    private Shaped shapes(ClusterSnapshot now, List<ClusterSnapshot> windows) {
        NodeSamples summed = NodeSamples.of(windows, features, config);
        List<NodeSample> byCapacity = summed.in(BackgroundShape.Both.CAPACITY);
        CostFit[] cpu = {fit(Dimension.CPU, byCapacity), null};
        CostFit[] disk = {fit(Dimension.DISK, byCapacity), null};
        if (!learn || !now.hasCapacities()) {
            return new Shaped(BackgroundShape.Both.CAPACITY, byCapacity, cpu[0], disk[0], 0, 0, cpu[0], disk[0]);
        }
        List<NodeSample> byNode = summed.in(BackgroundShape.Both.NODE);
        cpu[1] = fit(Dimension.CPU, byNode);
        disk[1] = fit(Dimension.DISK, byNode);
        BackgroundShape.Both chosen = new BackgroundShape.Both(better(cpu), better(disk));
        List<NodeSample> samples = chosen.equals(BackgroundShape.Both.CAPACITY) ? byCapacity
                : chosen.equals(BackgroundShape.Both.NODE) ? byNode : summed.in(chosen);
        // a fit reads only its own dimension's features, so each shape's fit stands for the mixed samples too
        return new Shaped(chosen, samples, cpu[chosen.cpu().ordinal()], disk[chosen.disk().ordinal()],
                chosen.cpu() == BackgroundShape.NODE ? cpu[0].fitError() : 0,
                chosen.disk() == BackgroundShape.NODE ? disk[0].fitError() : 0, cpu[0], disk[0]);
    }

    /** NODE where its fit's held-out error ({@code fits[1]}) is below capacity's ({@code fits[0]}) beyond their noise. */
    private static BackgroundShape better(CostFit[] fits) {
        double capacity = fits[0].fitError();
        double node = fits[1].fitError();
        return node < capacity && !CostFit.sameError(capacity, node) ? BackgroundShape.NODE : BackgroundShape.CAPACITY;
    }

    /**
     * The shapes chosen, the node samples with each dimension's background in its shape, each
     * dimension's cost fit on them (before any node's own load is taken out), and per
     * dimension the held-out error of the shape passed over (0 where
     * capacity was kept). One window judged the choice only on the layout it explains, so a forecast
     * of another layout from it claims no less error than the shape it beat there, as a block cache
     * learnt from one window does ({@link CacheModel#forecastError}).
     */
    private record Shaped(BackgroundShape.Both shapes, List<NodeSample> samples, CostFit cpu, CostFit disk,
                          double cpuPassedOver, double diskPassedOver, CostFit cpuByCapacity, CostFit diskByCapacity) {
        double claimed(Dimension d, double error, int windows) {
            double over = d == Dimension.CPU ? cpuPassedOver : diskPassedOver;
            return windows > 1 || Double.isNaN(error) ? error : Math.max(error, over);
        }
    }
}
