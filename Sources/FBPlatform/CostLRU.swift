/// Values by key within a budget of cost units (bytes, for the caches that
/// use it), least recently used evicted first: the storage of `GlyphCache`
/// and `CoverageMaskCache`, which add their locks and counters.
///
/// Entries live in one array linked from newest to oldest; freed slots are
/// reused, so once grown to its working set, lookups, insertions and
/// evictions allocate nothing. A value costing more than the whole budget
/// is not kept. Not thread-safe: its owner locks.
///
/// - Complexity: `value(for:)` and `insert` O(1) on average, plus the
///   evictions they cause.
package struct CostLRU<Key: Hashable, Value> {
    private struct Entry {
        var key: Key
        var value: Value?
        var cost: Int
        var newer: Int   // towards the most recently used; -1 at the end
        var older: Int   // towards the least recently used; -1 at the end
    }

    /// The most cost the kept values may add up to (never negative).
    package private(set) var budget: Int
    /// The cost of the kept values.
    package private(set) var costUsed = 0
    /// Values dropped to stay within the budget.
    package private(set) var evictions = 0

    private var index: [Key: Int] = [:]
    private var entries: [Entry] = []
    private var free: [Int] = []
    private var newest = -1
    private var oldest = -1

    package init(budget: Int) { self.budget = Swift.max(0, budget) }

    package var count: Int { index.count }

    package func contains(_ key: Key) -> Bool { index[key] != nil }

    /// The value for `key`, made the most recently used; `nil` when not kept.
    package mutating func value(for key: Key) -> Value? {
        guard let i = index[key] else { return nil }
        touch(i)
        return entries[i].value
    }

    /// Keeps `value` for `key` (replacing nothing: call after a failed
    /// lookup) when `cost` fits the budget, evicting the oldest as needed.
    package mutating func insert(_ value: Value, for key: Key, cost: Int) {
        guard cost <= budget, index[key] == nil else { return }
        evict(toFit: cost)
        let entry = Entry(key: key, value: value, cost: cost, newer: -1, older: newest)
        let i: Int
        if let f = free.popLast() { entries[f] = entry; i = f } else { entries.append(entry); i = entries.count - 1 }
        if newest >= 0 { entries[newest].newer = i }
        newest = i
        if oldest < 0 { oldest = i }
        index[key] = i
        costUsed += cost
    }

    /// Sets the budget (negative counts as 0) and evicts down to it.
    package mutating func setBudget(_ newBudget: Int) {
        budget = Swift.max(0, newBudget)
        evict(toFit: 0)
    }

    /// Drops every value (`evictions` stays).
    package mutating func removeAll() {
        index.removeAll(); entries.removeAll(); free.removeAll()
        newest = -1; oldest = -1; costUsed = 0
    }

    private mutating func touch(_ i: Int) {
        guard i != newest else { return }
        unlink(i)
        entries[i].older = newest
        entries[i].newer = -1
        if newest >= 0 { entries[newest].newer = i }
        newest = i
        if oldest < 0 { oldest = i }
    }

    private mutating func unlink(_ i: Int) {
        let newer = entries[i].newer, older = entries[i].older
        if newer >= 0 { entries[newer].older = older } else { newest = older }
        if older >= 0 { entries[older].newer = newer } else { oldest = newer }
    }

    /// Drops the oldest entries until `cost` more fits the budget.
    private mutating func evict(toFit cost: Int) {
        while costUsed + cost > budget, oldest >= 0 {
            let i = oldest
            unlink(i)
            index[entries[i].key] = nil
            costUsed -= entries[i].cost
            entries[i].value = nil
            free.append(i)
            evictions += 1
        }
    }
}
