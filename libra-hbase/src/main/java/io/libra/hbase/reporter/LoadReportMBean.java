package io.libra.hbase.reporter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;

/**
 * Publishes the latest {@link LoadReport} as flat JMX attributes, so the RegionServer's
 * {@code /jmx} servlet serves them as JSON. Per-region attributes are named
 * {@code region.<encoded name>.<readOps|writeOps|readBytes|writeBytes>} (per second).
 */
final class LoadReportMBean implements DynamicMBean {
    static final String[] REGION_FIELDS = {"readOps", "writeOps", "readBytes", "writeBytes"};

    private final String serverName;
    private final AtomicReference<LoadReport> latest = new AtomicReference<>();

    LoadReportMBean(String serverName) {
        this.serverName = serverName;
    }

    void publish(LoadReport report) {
        latest.set(report);
    }

    LoadReport latest() {
        return latest.get();
    }

    private Map<String, Object> attributes() {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("ServerName", serverName);
        LoadReport r = latest.get();
        if (r == null) {
            a.put("UpdatedAtMillis", 0L);
            return a;
        }
        a.put("UpdatedAtMillis", r.updatedAtMillis());
        a.put("WindowSeconds", r.windowSeconds());
        a.put("CpuCores", r.cpuCores());
        a.put("CpuUsage", r.cpuUsage());
        a.put("CpuSource", r.cpuSource());
        a.put("DiskReadBytesPerSec", r.diskReadBytesPerSec());
        a.put("DiskWriteBytesPerSec", r.diskWriteBytesPerSec());
        a.put("DiskBytesPerSec", r.diskBytesPerSec());
        a.put("DiskSource", r.diskSource());
        a.put("DiskCapacityBytesPerSec", r.diskCapacityBytesPerSec());
        r.regionRates().forEach((region, rates) -> {
            for (int i = 0; i < REGION_FIELDS.length; i++) {
                a.put("region." + region + "." + REGION_FIELDS[i], rates[i]);
            }
        });
        return a;
    }

    @Override
    public Object getAttribute(String name) throws AttributeNotFoundException {
        Object v = attributes().get(name);
        if (v == null) {
            throw new AttributeNotFoundException(name);
        }
        return v;
    }

    @Override
    public void setAttribute(Attribute attribute) {
        throw new UnsupportedOperationException("read-only");
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        Map<String, Object> all = attributes();
        AttributeList list = new AttributeList();
        for (String n : names) {
            if (all.containsKey(n)) {
                list.add(new Attribute(n, all.get(n)));
            }
        }
        return list;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
        throw new UnsupportedOperationException("no operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        List<MBeanAttributeInfo> infos = new ArrayList<>();
        attributes().forEach((name, value) -> infos.add(new MBeanAttributeInfo(name, value.getClass().getName(),
                name, true, false, false)));
        return new MBeanInfo(getClass().getName(), "Libra: CPU, disk and per-region traffic of RegionServer "
                + serverName, infos.toArray(new MBeanAttributeInfo[0]), null, null, null);
    }
}
