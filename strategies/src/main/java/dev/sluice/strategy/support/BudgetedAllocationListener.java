package dev.sluice.strategy.support;

import dev.sluice.spi.memory.AllocationListener;

/** Charges every allocation of an Arrow allocator (compression output, serialization scratch) to a budget. */
public final class BudgetedAllocationListener implements AllocationListener {
    private final MemoryBudget budget;

    public BudgetedAllocationListener(MemoryBudget budget) {
        this.budget = budget;
    }

    @Override
    public void onAllocation(long size) {
        budget.reserve(size);
    }

    @Override
    public void onRelease(long size) {
        budget.release(size);
    }
}
