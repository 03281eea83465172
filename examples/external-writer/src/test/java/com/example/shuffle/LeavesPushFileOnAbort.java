package com.example.shuffle;

/** A deliberately broken celeborn-push: an aborted writer leaves its push file behind. Registered for tests only. */
public final class LeavesPushFileOnAbort extends PushWriterFactory {
    @Override
    public String name() {
        return "celeborn-push-leaky";
    }

    @Override
    protected boolean removesPushFileOnAbort() {
        return false;
    }
}
