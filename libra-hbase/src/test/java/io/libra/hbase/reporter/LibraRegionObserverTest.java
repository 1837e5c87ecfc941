package io.libra.hbase.reporter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class LibraRegionObserverTest {
    @Test
    void countsRowFamilyQualifierAndValueBytesOfEachCell() {
        KeyValue a = new KeyValue(Bytes.toBytes("row1"), Bytes.toBytes("f"), Bytes.toBytes("q"), new byte[100]);
        KeyValue b = new KeyValue(Bytes.toBytes("r"), Bytes.toBytes("ff"), Bytes.toBytes(""), new byte[7]);
        assertThat(LibraRegionObserver.cellBytes(List.of(a, b))).isEqualTo((4 + 1 + 1 + 100) + (1 + 2 + 0 + 7));
        assertThat(LibraRegionObserver.cellBytes(List.of())).isZero();
    }
}
