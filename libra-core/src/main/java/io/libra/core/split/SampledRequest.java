package io.libra.core.split;

/** One sampled request of a region: the key span it touched and the load it carried. */
public record SampledRequest(String startKey, String endKey, double load) {
    public SampledRequest {
        if (startKey.compareTo(endKey) > 0) {
            throw new IllegalArgumentException("sampled request: startKey after endKey");
        }
        if (!(load >= 0)) {
            throw new IllegalArgumentException("sampled request: load must be >= 0");
        }
    }
}
