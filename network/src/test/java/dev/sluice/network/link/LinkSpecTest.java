package dev.sluice.network.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.InvalidParameterException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LinkSpecTest {
    @Test
    void nativeIsTheMachinesLoopbackWithNothingEmulated() {
        LinkSpec spec = LinkSpec.parse("link", "native");
        assertTrue(spec.isNative());
        assertEquals("loopback", spec.mechanism());
        assertEquals(0, spec.rateBits());
    }

    @Test
    void anEmulatedRateIsReadInDecimalBitsAsTcWritesItWithAtLeastTenMillisecondsOfBurst() {
        LinkSpec spec = LinkSpec.parse("link", "emulated:rate=200mbit");
        assertEquals(200_000_000L, spec.rateBits());
        assertEquals(256 * 1024, spec.burstBytes());
        assertEquals("netns+tbf", spec.mechanism());
        assertEquals(4_000_000_000L / 8 / 100, LinkSpec.parse("link", "emulated:rate=4gbit").burstBytes());
        LinkSpec withBurst = LinkSpec.parse("link", "emulated:rate=1.5gbit:burst=4m");
        assertEquals(1_500_000_000L, withBurst.rateBits());
        assertEquals(4L << 20, withBurst.burstBytes());
        assertEquals(java.util.List.of("tbf", "rate", "1500000000bit", "burst", "4194304", "latency", "50ms"),
                java.util.List.of(withBurst.tbfArguments()));
    }

    @Test
    void aProfileIsItsNodesPublishedBandwidthDividedByItsCores() {
        LinkSpec t3 = LinkSpec.parse("link", "t3.xlarge");
        assertEquals(256_000_000L, t3.rateBits());
        assertEquals(LinkProfile.T3_XLARGE, t3.profile());
        assertEquals(312_500_000L, LinkSpec.parse("link", "m5.8xlarge").rateBits());
        assertEquals(260_416_667L, LinkSpec.parse("link", "m5.24xlarge").rateBits());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "fast|native, emulated:rate=RATE",
        "emulated|or a profile: t3.xlarge",
        "emulated:rate=200|'200' is not",
        "emulated:rate=200mbps|'200mbps' is not",
        "emulated:burst=1m|a rate",
        "emulated:rate=500kbit|from 1mbit to 400gbit",
        "emulated:rate=200mbit:burst=1k|from 64k",
        "emulated:rate=200mbit:burst=lots|is not a byte size",
        "emulated:rate=200mbit:delay=10ms|netem",
        "emulated:rate=200mbit:mtu=1500|'mtu=1500' is neither",
        "emulated:rate=1gbit:rate=2gbit|rate given once"})
    void aBadLinkIsRefusedNamingTheParameterTheValueAndWhatIsAllowed(String value, String allowedPart) {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> LinkSpec.parse("--link", value));
        assertEquals("--link", e.parameter());
        assertEquals(value, e.value());
        assertTrue(e.allowed().contains(allowedPart), e.getMessage());
    }
}
