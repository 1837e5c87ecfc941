package io.libra.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

/** A reason's numbers read as the comparison that held. */
class NotesTest {
    @Test
    void aComparisonGetsTheDecimalsThatTellItsSidesApart() {
        assertThat(Notes.compared(0.0021, " > ", 0.002)).isEqualTo("0.0021 > 0.002");
        assertThat(Notes.compared(1.04999, " < 1+λ=", 1.05)).isEqualTo("1.04999 < 1+λ=1.05");
        assertThat(Notes.compared(0.5, " < ", 1.25)).isEqualTo("0.5 < 1.25");
        assertThat(Notes.against(1.0000004, 1)).isEqualTo("1.0000004");
    }

    @Test
    void aLoneNumberKeepsThreeDecimalsAndReadsAsAFigure() {
        assertThat(Notes.num(0.123456)).isEqualTo("0.123");
        assertThat(Notes.num(2)).isEqualTo("2.0");
        assertThat(Notes.num(0.0004)).isEqualTo("0.0");
    }

    @Property(tries = 500)
    void theStatedSidesCompareAsTheNumbersDo(@ForAll @DoubleRange(min = -3, max = 3) double a,
                                             @ForAll @DoubleRange(min = -3, max = 3) double b) {
        String[] sides = Notes.compared(a, " ? ", b).split(" \\? ");
        assertThat(Integer.signum(Double.compare(Double.parseDouble(sides[0]), Double.parseDouble(sides[1]))))
                .as("%s vs %s", a, b).isEqualTo(Integer.signum(Double.compare(a, b)));
    }

    @Property(tries = 200)
    void closeButDistinctNumbersNeverReadEqual(@ForAll @DoubleRange(min = 0, max = 2) double a) {
        double b = Math.nextUp(a);
        String[] sides = Notes.compared(a, " < ", b).split(" < ");
        assertThat(Double.parseDouble(sides[0])).isLessThan(Double.parseDouble(sides[1]));
    }
}
