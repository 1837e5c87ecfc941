package io.libra.core.schedule;

import io.libra.core.model.Dimension;

/** Short human sentences for reasons; plain concatenation because plans can hold many actions. */
final class Notes {
    private Notes() {
    }

    static String num(double x) {
        return Double.toString(Math.round(x * 1000) / 1000.0);
    }

    static String move(String region, Dimension d, double srcLoad, double x, double y, double lambda) {
        return "source " + d.label() + " " + num(srcLoad) + " > 1+λ=" + num(1 + lambda) + "; " + region + " "
                + d.label() + " " + num(x) + " > " + d.other().label() + " " + num(y);
    }

    static String split(String region, Dimension d, double x, double lambda, double ratio) {
        return region + " " + d.label() + " " + num(x) + " > λ/2=" + num(lambda / 2)
                + " and no lighter region qualified; split at load ratio " + num(ratio);
    }
}
