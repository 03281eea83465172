package dev.sluice.network.link;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Links of published nodes, each the node's sustained network bandwidth divided by its vCPUs: one map task runs on
 * one core, and the link a core gets is its share of the node's. Burst bandwidth is not used: a shuffle of minutes
 * outlasts the burst credits (AWS: "typically from 5 to 60 minutes"), and datafusion-distributed PR #242 ran its
 * TPC-H SF10 comparison on 4 x t3.xlarge, whose sustained figure is the baseline.
 */
public enum LinkProfile {
    /** datafusion-distributed PR #242's nodes: 1.024 Gbit/s baseline (up to 5 Gbit/s burst), 4 vCPUs. */
    T3_XLARGE("t3.xlarge", 1.024e9, 4, "AWS EC2 instance types, general purpose, network specifications: t3.xlarge "
            + "baseline bandwidth 1.024 Gbps, burst 5 Gbps, 4 vCPUs "
            + "(https://docs.aws.amazon.com/ec2/latest/instancetypes/gp.html)"),
    /** A common 10 Gbit/s node. */
    M5_8XLARGE("m5.8xlarge", 10e9, 32, "AWS, Amazon EC2 instance network bandwidth: \"an m5.8xlarge instance has 32 "
            + "vCPUs and 10 Gbps network bandwidth\" "
            + "(https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-instance-network-bandwidth.html)"),
    /** A common 25 Gbit/s node. */
    M5_24XLARGE("m5.24xlarge", 25e9, 96, "AWS EC2 instance types, general purpose, network specifications: "
            + "m5.24xlarge 25 Gbps, 96 vCPUs (https://docs.aws.amazon.com/ec2/latest/instancetypes/gp.html)");

    public final String name;
    public final double nodeBits;
    public final int cores;
    public final String source;

    LinkProfile(String name, double nodeBits, int cores, String source) {
        this.name = name;
        this.nodeBits = nodeBits;
        this.cores = cores;
        this.source = source;
    }

    /** The node's bandwidth over its cores, in bits per second. */
    public long bitsPerCore() {
        return Math.round(nodeBits / cores);
    }

    public String derivation() {
        return String.format(Locale.ROOT, "%s: %.3f Gbit/s / %d vCPUs = %.1f Mbit/s per core", name, nodeBits / 1e9,
                cores, bitsPerCore() / 1e6);
    }

    static LinkProfile byName(String name) {
        for (LinkProfile p : values()) {
            if (p.name.equals(name)) {
                return p;
            }
        }
        return null;
    }

    public static String names() {
        return Arrays.stream(values()).map(p -> p.name).collect(Collectors.joining(", "));
    }
}
