package io.libra.hbase.reporter;

import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.FlushLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.StoreFile;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;

/**
 * Counts each region's user reads and writes, in requests and payload bytes: the per-range
 * counters of the metric mapping, which HBase 2.6 does not keep in bytes. Load it with
 * {@code hbase.coprocessor.region.classes}. Counting is a few adds per request and never fails
 * the request.
 */
public final class LibraRegionObserver implements RegionCoprocessor, RegionObserver {
    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public void stop(org.apache.hadoop.hbase.CoprocessorEnvironment env) {
        if (env instanceof RegionCoprocessorEnvironment) {
            RegionCoprocessorEnvironment e = (RegionCoprocessorEnvironment) env;
            ServerTraffic.of(e.getServerName().getServerName()).closed(e.getRegionInfo().getEncodedName());
        }
    }

    /** Thread CPU and I/O of sampled requests, flushes and compactions (one meter per JVM: it is per thread). */
    static final WorkMeter METER = new WorkMeter(WorkMeter.DEFAULT_EVERY);

    @Override
    public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result) {
        METER.beginRequest();
    }

    @Override
    public boolean preScannerNext(ObserverContext<RegionCoprocessorEnvironment> c, InternalScanner s,
                                  List<Result> result, int limit, boolean hasNext) {
        METER.beginRequest();
        return hasNext;
    }

    @Override
    public void preBatchMutate(ObserverContext<RegionCoprocessorEnvironment> c,
                               MiniBatchOperationInProgress<Mutation> batch) {
        METER.beginRequest();
    }

    @Override
    public void preFlush(ObserverContext<RegionCoprocessorEnvironment> c, FlushLifeCycleTracker tracker) {
        METER.beginBackground();
    }

    @Override
    public void postFlush(ObserverContext<RegionCoprocessorEnvironment> c, FlushLifeCycleTracker tracker) {
        METER.endBackground(traffic(c));
    }

    @Override
    public InternalScanner preCompact(ObserverContext<RegionCoprocessorEnvironment> c, Store store,
                                      InternalScanner scanner, ScanType scanType, CompactionLifeCycleTracker tracker,
                                      CompactionRequest request) {
        METER.beginBackground();
        return scanner;
    }

    @Override
    public void postCompact(ObserverContext<RegionCoprocessorEnvironment> c, Store store, StoreFile resultFile,
                            CompactionLifeCycleTracker tracker, CompactionRequest request) {
        METER.endBackground(traffic(c));
    }

    @Override
    public void postGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result) {
        long bytes = cellBytes(result);
        RegionTraffic t = traffic(c);
        METER.endRequest(t);
        t.read(1, bytes);
        t.keys.offer(get.getRow(), false, 1, bytes);
    }

    @Override
    public boolean postScannerNext(ObserverContext<RegionCoprocessorEnvironment> c, InternalScanner s,
                                   List<Result> result, int limit, boolean hasNext) {
        long bytes = 0;
        for (Result r : result) {
            if (r.rawCells() != null) {
                bytes += cellBytes(List.of(r.rawCells()));
            }
        }
        RegionTraffic t = traffic(c);
        METER.endRequest(t);
        if (!result.isEmpty()) {
            t.read(result.size(), bytes);
            t.keys.offer(result.get(0).getRow(), false, result.size(), bytes);
        }
        return hasNext;
    }

    @Override
    public void postBatchMutate(ObserverContext<RegionCoprocessorEnvironment> c,
                                MiniBatchOperationInProgress<Mutation> batch) {
        long bytes = 0;
        for (int i = 0; i < batch.size(); i++) {
            for (List<Cell> cells : batch.getOperation(i).getFamilyCellMap().values()) {
                bytes += cellBytes(cells);
            }
        }
        RegionTraffic t = traffic(c);
        METER.endRequest(t);
        t.write(batch.size(), bytes);
        if (batch.size() > 0) {
            t.keys.offer(batch.getOperation(0).getRow(), true, batch.size(), bytes);
        }
    }

    private static RegionTraffic traffic(ObserverContext<RegionCoprocessorEnvironment> c) {
        RegionCoprocessorEnvironment env = c.getEnvironment();
        RegionTraffic t = ServerTraffic.of(env.getServerName().getServerName()).region(env.getRegionInfo().getEncodedName());
        byte[] end = env.getRegionInfo().getEndKey();
        if (t.endKey != end) {
            t.endKey = end; // written once per region (RegionInfo hands out its own array), not per request
        }
        return t;
    }

    /** User payload: row, family, qualifier and value bytes. */
    static long cellBytes(List<Cell> cells) {
        long n = 0;
        for (Cell cell : cells) {
            n += cell.getRowLength() + cell.getFamilyLength() + cell.getQualifierLength() + cell.getValueLength();
        }
        return n;
    }
}
