package io.libra.hbase.reporter;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.hbase.ServerName;
import org.junit.jupiter.api.Test;

class LoadReportMBeanTest {
    @Test
    void publishesTheReportAsFlatAttributesOnThePlatformMBeanServer() throws Exception {
        ServerName sn = ServerName.valueOf("host-a", 16020, 7L);
        ObjectName name = LibraRegionServerReporter.objectName(sn);
        LoadReportMBean bean = new LoadReportMBean(sn.getServerName());
        MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
        mbs.registerMBean(bean, name);
        try {
            assertThat(mbs.getAttribute(name, "UpdatedAtMillis")).isEqualTo(0L);
            bean.publish(new LoadReport(sn.getServerName(), 99L, 10, 4, 1.25, "process", 100, 200, "proc-self-io",
                    Map.of("abc", new double[] {1, 2, 3, 4})));
            assertThat(mbs.getAttribute(name, "ServerName")).isEqualTo("host-a,16020,7");
            assertThat(mbs.getAttribute(name, "CpuUsage")).isEqualTo(1.25);
            assertThat(mbs.getAttribute(name, "DiskBytesPerSec")).isEqualTo(300.0);
            assertThat(mbs.getAttribute(name, "region.abc.writeBytes")).isEqualTo(4.0);
            assertThat(mbs.getMBeanInfo(name).getAttributes()).extracting("name").contains("region.abc.readOps", "CpuSource");
        } finally {
            mbs.unregisterMBean(name);
        }
    }

    @Test
    void buildsItsAttributesOncePerWindowNotPerLookup() throws Exception {
        LoadReportMBean bean = new LoadReportMBean("h,1,2");
        bean.publish(new LoadReport("h,1,2", 5L, 10, 4, 1, "process", 1, 2, "proc-self-io",
                Map.of("r1", new double[] {1, 2, 3, 4})));
        javax.management.MBeanInfo info = bean.getMBeanInfo();
        assertThat(bean.getMBeanInfo()).isSameAs(info);
        assertThat(bean.getAttributes(new String[] {"CpuUsage", "nope", "region.r1.readOps"}).asList())
                .extracting("name").containsExactly("CpuUsage", "region.r1.readOps");
        bean.publish(new LoadReport("h,1,2", 6L, 10, 4, 2, "process", 1, 2, "proc-self-io", Map.of()));
        assertThat(bean.getMBeanInfo()).isNotSameAs(info);
        assertThat(bean.getAttribute("UpdatedAtMillis")).isEqualTo(6L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> bean.getAttribute("region.r1.readOps"))
                .isInstanceOf(javax.management.AttributeNotFoundException.class);
    }
}
