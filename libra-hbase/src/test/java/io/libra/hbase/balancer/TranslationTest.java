package io.libra.hbase.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.libra.core.model.ClusterSnapshot;
import io.libra.core.plan.Action;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.SplitAction;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.junit.jupiter.api.Test;

class TranslationTest {
    private static final ServerName A = ServerName.valueOf("a", 16020, 1);
    private static final ServerName B = ServerName.valueOf("b", 16020, 1);

    private static HBaseSnapshot snap(List<String> estimated, RegionInfo... regions) {
        Map<String, RegionInfo> byId = new java.util.LinkedHashMap<>();
        for (RegionInfo r : regions) {
            byId.put(r.getEncodedName(), r);
        }
        ClusterSnapshot cs = Skewed.snapshot();
        return new HBaseSnapshot(cs, byId, Map.of(A.getServerName(), A, B.getServerName(), B), estimated);
    }

    @Test
    void refusesToMoveToAServerWithoutFreshReport() {
        RegionInfo r = RegionInfoBuilder.newBuilder(TableName.valueOf("t")).build();
        List<Action> moves = List.of(new MoveAction(r.getEncodedName(), A.getServerName(), B.getServerName(), 0, null));
        Translation refused = Translation.of(moves, snap(List.of(B.getServerName()), r), 0);
        assertThat(refused.moves()).isEmpty();
        assertThat(refused.deferred()).singleElement().asString().contains("has no fresh report, never a destination");
        assertThat(Translation.of(moves, snap(List.of(A.getServerName()), r), 0).moves())
                .as("the regions of an unreported server may still leave it").hasSize(1);
    }

    @Test
    void neverMovesSystemTableRegions() {
        RegionInfo meta = RegionInfoBuilder.newBuilder(TableName.META_TABLE_NAME).build();
        List<Action> moves = List.of(new MoveAction(meta.getEncodedName(), A.getServerName(), B.getServerName(), 0, null));
        Translation t = Translation.of(moves, snap(List.of(), meta), 0);
        assertThat(t.moves()).isEmpty();
        assertThat(t.deferred()).singleElement().asString().contains("system table");
    }

    @Test
    void aRegionMovedInThisRunIsSplitOnlyInALaterOne() {
        RegionInfo r = RegionInfoBuilder.newBuilder(TableName.valueOf("t")).build();
        String id = r.getEncodedName();
        MoveAction move = new MoveAction(id, A.getServerName(), B.getServerName(), 0, null);
        SplitAction split = new SplitAction(id, "80", id + "-a", id + "-b", 0.5, null);
        Translation moveFirst = Translation.of(List.of(move, split), snap(List.of(), r), 0);
        assertThat(moveFirst.moves()).hasSize(1);
        assertThat(moveFirst.splits()).isEmpty();
        assertThat(moveFirst.deferred()).singleElement().asString()
                .isEqualTo("split of " + id + ": region moves in this run, its split follows in a later run");
        Translation splitFirst = Translation.of(List.of(split, move), snap(List.of(), r), 0);
        assertThat(splitFirst.splits()).hasSize(1);
        assertThat(splitFirst.moves()).isEmpty();
        assertThat(splitFirst.deferred()).singleElement().asString().contains("being split in this run");
    }
}
