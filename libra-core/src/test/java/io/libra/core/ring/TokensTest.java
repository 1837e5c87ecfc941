package io.libra.core.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class TokensTest {
    @Property
    void keysRoundTripAndSortLikeTokens(@ForAll long a, @ForAll long b) {
        assertThat(Tokens.fromKey(Tokens.toKey(a))).isEqualTo(a);
        assertThat(Tokens.toKey(a)).hasSize(16);
        assertThat(Integer.signum(Tokens.toKey(a).compareTo(Tokens.toKey(b)))).isEqualTo(Integer.signum(Long.compare(a, b)));
    }

    @Test
    void knownEncodings() {
        assertThat(Tokens.toKey(Long.MIN_VALUE)).isEqualTo("0000000000000000");
        assertThat(Tokens.toKey(0)).isEqualTo("8000000000000000");
        assertThat(Tokens.toKey(Long.MAX_VALUE)).isEqualTo("ffffffffffffffff");
        assertThat(Tokens.toKey(-1)).isEqualTo("7fffffffffffffff");
    }

    @Test
    void rejectsMalformedKeys() {
        assertThatThrownBy(() -> Tokens.fromKey("abc")).hasMessageContaining("16 lowercase hex digits");
        assertThatThrownBy(() -> Tokens.fromKey("zzzzzzzzzzzzzzzz")).hasMessageContaining("16 lowercase hex digits");
    }

    @Property
    void advanceStaysInsideTheSpanAndWraps(@ForAll long from, @ForAll long to) {
        long span = Tokens.clockwise(from, to);
        long mid = Tokens.advance(from, span, 0.5);
        assertThat(Long.compareUnsigned(Tokens.clockwise(from, mid), span) <= 0 || span == 0).isTrue();
        assertThat(Tokens.advance(from, span, 0)).isEqualTo(from);
    }
}
