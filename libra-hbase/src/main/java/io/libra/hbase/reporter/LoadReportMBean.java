package io.libra.hbase.reporter;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;

/**
 * Publishes the latest {@link LoadReport} as flat JMX attributes, so the RegionServer's
 * {@code /jmx} servlet serves them as JSON. Per-region attributes are named
 * {@code region.<encoded name>.<field>} for each of {@link #REGION_FIELDS} (per second).
 *
 * <p>The attribute map and the {@link MBeanInfo} are built once per window, when a report is
 * published: a {@code /jmx} pass asks for every attribute one by one, so each lookup must be
 * O(1) (rebuilding per lookup made a pass quadratic in the region count).
 */
public final class LoadReportMBean implements DynamicMBean {
    /**
     * The per-region fields of a report, in the order of each {@link LoadReport#regionRates()}
     * array: the one list the reporter publishes, the master's puller reads and the snapshot
     * builder indexes (with the constants below).
     */
    public static final java.util.List<String> REGION_FIELDS = java.util.List.of("readOps", "writeOps", "readBytes",
            "writeBytes", "measuredCpu", "measuredDiskBytesPerSec");
    public static final int READ_OPS = REGION_FIELDS.indexOf("readOps");
    public static final int WRITE_OPS = REGION_FIELDS.indexOf("writeOps");
    public static final int READ_BYTES = REGION_FIELDS.indexOf("readBytes");
    public static final int WRITE_BYTES = REGION_FIELDS.indexOf("writeBytes");
    /** Sampled CPU (cores) and I/O (bytes/s) of the region; NaN when not measured. */
    public static final int MEASURED_CPU = REGION_FIELDS.indexOf("measuredCpu");
    public static final int MEASURED_DISK = REGION_FIELDS.indexOf("measuredDiskBytesPerSec");
    /**
     * Per region, its sampled key histogram as one string: buckets separated by {@code ;}, each
     * {@code <end key hex>,<readOps>,<writeOps>,<readBytes>,<writeBytes>} (per second).
     */
    public static final String KEY_HISTOGRAM = "keyHistogram";

    /** One window's attributes and their description, swapped whole so a reader never sees a mix. */
    private record View(LoadReport report, Map<String, Object> attributes, MBeanInfo info) {
    }

    private final String serverName;
    private volatile View view;

    LoadReportMBean(String serverName) {
        this.serverName = serverName;
        this.view = view(serverName, null);
    }

    void publish(LoadReport report) {
        view = view(serverName, report);
    }

    LoadReport latest() {
        return view.report();
    }

    private static View view(String serverName, LoadReport r) {
        Map<String, Object> a = attributes(serverName, r);
        MBeanAttributeInfo[] infos = new MBeanAttributeInfo[a.size()];
        int i = 0;
        for (Map.Entry<String, Object> e : a.entrySet()) {
            infos[i++] = new MBeanAttributeInfo(e.getKey(), e.getValue().getClass().getName(), e.getKey(), true,
                    false, false);
        }
        MBeanInfo info = new MBeanInfo(LoadReportMBean.class.getName(),
                "Libra: CPU, disk and per-region traffic of RegionServer " + serverName, infos, null, null, null);
        return new View(r, Collections.unmodifiableMap(a), info);
    }

    private static Map<String, Object> attributes(String serverName, LoadReport r) {
        Map<String, Object> a = new LinkedHashMap<>(r == null ? 4 : 32 + r.regionRates().size() * 6);
        a.put("ServerName", serverName);
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
            for (int i = 0; i < REGION_FIELDS.size() && i < rates.length; i++) {
                if (!Double.isNaN(rates[i])) { // not measured: left out, JSON has no NaN
                    a.put("region." + region + "." + REGION_FIELDS.get(i), rates[i]);
                }
            }
        });
        r.keyHistograms().forEach((region, buckets) -> a.put("region." + region + "." + KEY_HISTOGRAM, encode(buckets)));
        return a;
    }

    static String encode(java.util.List<io.libra.core.model.KeyBucket> buckets) {
        StringBuilder b = new StringBuilder();
        for (io.libra.core.model.KeyBucket k : buckets) {
            io.libra.core.model.RegionCounters c = k.counters();
            if (b.length() > 0) {
                b.append(';');
            }
            b.append(k.endKey()).append(',').append(c.readOps()).append(',').append(c.writeOps()).append(',')
                    .append(c.readBytes()).append(',').append(c.writeBytes());
        }
        return b.toString();
    }

    /** The buckets of {@link #encode}; empty when the text does not parse. */
    public static java.util.List<io.libra.core.model.KeyBucket> decode(String text) {
        java.util.List<io.libra.core.model.KeyBucket> out = new java.util.ArrayList<>();
        try {
            for (String part : text.split(";")) {
                String[] f = part.split(",", -1);
                if (f.length == 5) {
                    out.add(new io.libra.core.model.KeyBucket(f[0], new io.libra.core.model.RegionCounters(
                            Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3]),
                            Double.parseDouble(f[4]))));
                }
            }
        } catch (RuntimeException e) {
            return java.util.List.of();
        }
        return out;
    }

    @Override
    public Object getAttribute(String name) throws AttributeNotFoundException {
        Object v = view.attributes().get(name);
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
        Map<String, Object> all = view.attributes();
        AttributeList list = new AttributeList();
        for (String n : names) {
            Object v = all.get(n);
            if (v != null) {
                list.add(new Attribute(n, v));
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
        return view.info();
    }
}
