package io.libra.hbase.balancer;

import io.libra.core.model.ClusterSnapshot;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * A core snapshot of the cluster together with the HBase objects its ids stand for: region ids
 * are encoded region names, node ids are server names ({@code host,port,startcode}).
 *
 * @param estimatedNodes nodes whose CPU and disk were estimated from request counters alone
 */
public record HBaseSnapshot(ClusterSnapshot snapshot, Map<String, RegionInfo> regions,
                            Map<String, ServerName> servers, List<String> estimatedNodes) {
}
