package dev.sluice.core.input;

/** 64-bit mixing used for seeds, keys and content hashes (the finalizer of SplitMix64). */
public final class Mix {
    private Mix() {}

    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
