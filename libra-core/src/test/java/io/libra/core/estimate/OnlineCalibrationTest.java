package io.libra.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.libra.core.Clusters;
import io.libra.core.model.ClusterSnapshot;
import io.libra.core.model.Node;
import io.libra.core.model.Region;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OnlineCalibrationTest {
    /** Windows whose node CPU follows 1e-4·ROPS + cWrite·1e-4·WOPS and disk 1·read + w·write terms. */
    private static ClusterSnapshot window(SplittableRandom rnd, double c, double w, boolean collinear) {
        List<Region> rs = new ArrayList<>();
        List<Node> ns = new ArrayList<>();
        DiskCostModel d = DiskCostModel.DEFAULT;
        for (int j = 0; j < 6; j++) {
            double reads = 1000 * rnd.nextDouble();
            double writes = collinear ? reads : 1000 * rnd.nextDouble();
            Region r = Clusters.region(j, "n" + j, reads, writes, reads * 8192, writes * 2048);
            rs.add(r);
            double cpu = 1e-4 * (reads + c * writes);
            double disk = d.readTerm(r.counters()) + w * d.writeTerm(r.counters());
            ns.add(new Node("n" + j, 64, cpu, disk));
        }
        return new ClusterSnapshot("generic", Instant.EPOCH, 60, ns, rs);
    }

    @Test
    void learnsTheCorrectionFactorAndDiskWeightsFromWindows() {
        SplittableRandom rnd = new SplittableRandom(1);
        OnlineCalibration cal = new OnlineCalibration(EstimationConfig.DEFAULT);
        for (int k = 0; k < 5; k++) {
            cal = cal.observe(window(rnd, 2.2, 5.0, false));
        }
        Calibration fit = cal.fit();
        assertThat(fit.cpuLearnt()).isTrue();
        assertThat(fit.correctionFactor()).isCloseTo(2.2, within(1e-6));
        assertThat(fit.diskLearnt()).isTrue();
        assertThat(fit.disk().writeWeight() / fit.disk().readWeight()).isCloseTo(5.0, within(1e-6));
        assertThat(fit.disk().writeOpBytes()).isEqualTo(DiskCostModel.DEFAULT.writeOpBytes());
        assertThat(fit.applyTo(EstimationConfig.DEFAULT).correctionFactor()).isCloseTo(2.2, within(1e-6));
    }

    @Test
    void keepsTheConfiguredValueWhenReadsAndWritesMoveTogether() {
        SplittableRandom rnd = new SplittableRandom(2);
        OnlineCalibration cal = new OnlineCalibration(EstimationConfig.DEFAULT).observe(window(rnd, 3, 5, true));
        Calibration fit = cal.fit();
        assertThat(fit.cpuLearnt()).isFalse();
        assertThat(fit.correctionFactor()).isEqualTo(EstimationConfig.PAPER_CORRECTION_FACTOR);
        assertThat(fit.detail()).contains("c kept");
    }

    @Test
    void learnsTheBytesAWriteCostsBesidesItsPayloadFromWriteOnlyWindows() {
        SplittableRandom rnd = new SplittableRandom(5);
        OnlineCalibration cal = new OnlineCalibration(EstimationConfig.DEFAULT);
        for (int k = 0; k < 4; k++) {
            List<Region> rs = new ArrayList<>();
            List<Node> ns = new ArrayList<>();
            for (int j = 0; j < 6; j++) {
                double writes = 100 + 1000 * rnd.nextDouble();
                double value = 100 + 4000 * rnd.nextDouble();
                rs.add(Clusters.region(j, "n" + j, 0, writes, 0, writes * value));
                ns.add(new Node("n" + j, 64, 1e-4 * writes, 4 * writes * value + 128 * writes));
            }
            cal = cal.observe(new ClusterSnapshot("generic", Instant.EPOCH, 60, ns, rs));
        }
        Calibration fit = cal.fit();
        assertThat(fit.diskLearnt()).isTrue();
        assertThat(fit.disk().writeOpBytes()).isCloseTo(32, within(1e-6));
        assertThat(fit.disk().writeWeight() / fit.disk().readWeight()).isCloseTo(3.0, within(1e-6));
        assertThat(fit.cpuLearnt()).isFalse();
        assertThat(cal.estimation().disk().writeOpBytes()).isCloseTo(32, within(1e-6));
    }

    @Test
    void keepsTheConfiguredValueWhenTheFitIsPoor() {
        SplittableRandom rnd = new SplittableRandom(3);
        OnlineCalibration cal = new OnlineCalibration(EstimationConfig.DEFAULT);
        for (int k = 0; k < 5; k++) {
            ClusterSnapshot w = window(rnd, 2, 5, false);
            List<Node> noisy = new ArrayList<>();
            for (Node n : w.nodes()) {
                noisy.add(new Node(n.id(), 64, n.cpuUsage() * (0.1 + 3 * rnd.nextDouble()), n.diskBytesPerSec()));
            }
            cal = cal.observe(w.withState(noisy, w.regions()));
        }
        Calibration fit = cal.fit();
        assertThat(fit.cpuLearnt()).isFalse();
        assertThat(fit.cpuFitQuality()).isLessThan(0.8);
        assertThat(fit.correctionFactor()).isEqualTo(EstimationConfig.PAPER_CORRECTION_FACTOR);
    }

    @Test
    void keepsOnlyTheMostRecentSamples() {
        SplittableRandom rnd = new SplittableRandom(4);
        OnlineCalibration cal = new OnlineCalibration(EstimationConfig.DEFAULT);
        for (int k = 0; k < OnlineCalibration.MAX_SAMPLES / 6 + 10; k++) {
            cal = cal.observe(window(rnd, 2, 5, false));
        }
        assertThat(cal.sampleCount()).isEqualTo(OnlineCalibration.MAX_SAMPLES);
    }
}
