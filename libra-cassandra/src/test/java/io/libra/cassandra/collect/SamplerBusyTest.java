package io.libra.cassandra.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import javax.management.RuntimeMBeanException;
import org.junit.jupiter.api.Test;

/** An operator's toppartitions session is recognised as such, not as a node that is down. */
class SamplerBusyTest {
    @Test
    void cassandrasRefusalOfASecondSamplingSessionIsBusyNotDown() {
        // what JMX hands back when FrequencySampler.beginSampling refuses
        RuntimeMBeanException busy = new RuntimeMBeanException(new RuntimeException("Sampling already in progress"),
                "java.lang.RuntimeException: Sampling already in progress");
        assertThat(Collector.samplerBusy(busy)).isTrue();
        assertThat(Collector.samplerBusy(new IOException("n1: beginLocalSampling: Sampling already in progress"))).isTrue();
        assertThat(Collector.samplerBusy(new IOException("JMX at 127.0.0.1:7100: Connection refused"))).isFalse();
    }
}
