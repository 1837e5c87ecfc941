package io.libra.hbase.balancer;

import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.client.BalanceRequest;
import org.apache.hadoop.hbase.coprocessor.MasterCoprocessor;
import org.apache.hadoop.hbase.coprocessor.MasterCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.MasterObserver;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.master.RegionPlan;

/**
 * Tells {@link LibraLoadBalancer} whether a balance request is a dry run and how many of its
 * moves the master executed. Load it with {@code hbase.coprocessor.master.classes}; without it
 * Libra still moves regions but never splits.
 */
public final class LibraMasterObserver implements MasterCoprocessor, MasterObserver {
    @Override
    public Optional<MasterObserver> getMasterObserver() {
        return Optional.of(this);
    }

    @Override
    public void preBalance(ObserverContext<MasterCoprocessorEnvironment> ctx, BalanceRequest request) {
        BalanceRequestContext.begin(request.isDryRun());
    }

    @Override
    public void postBalance(ObserverContext<MasterCoprocessorEnvironment> ctx, BalanceRequest request,
                            List<RegionPlan> plans) {
        BalanceRequestContext.end();
        if (!request.isDryRun() && plans != null) {
            BalancerMetrics.movesExecuted(plans.size());
        }
    }
}
