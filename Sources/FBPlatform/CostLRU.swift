/// Values by key within a budget of cost units (bytes, for the caches that
/// use it), least recently used evicted first: the storage of `GlyphCache`
/// and `CoverageMaskCache`, which add their locks and counters.
///
/// Entries live in one array linked from newest to oldest; freed slots are
/// reused, so once grown to its working set, lookups, insertions and
/// evictions allocate nothing. A value costing more than the whole budget
/// is not kept. Not thread-safe: its owner locks.
///
/// Public and `@inlinable`, so the caches in other modules (`GlyphCache` in
/// FBText, `CoverageMaskCache` in FBRuntime) run it specialised for their
/// key and value types. Called through its generic entry points (as a
/// `package` type it was: this toolchain does not make a `package`
/// declaration's `@inlinable` body available to other modules without
/// package-wide optimisation), the lookups went through run-time type
/// metadata, and the 2,018-glyph text case of `scripts/bench scene` took
/// 15-16 ms a frame instead of 14.
///
/// - Complexity: `value(for:)` and `insert` O(1) on average, plus the
///   evictions they cause.
public struct CostLRU<Key: Hashable, Value> {
    @usableFromInline
    struct Entry {
        @usableFromInline var key: Key
        @usableFromInline var value: Value?
        @usableFromInline var cost: Int
        @usableFromInline var newer: Int   // towards the most recently used; -1 at the end
        @usableFromInline var older: Int   // towards the least recently used; -1 at the end

        @inlinable
        init(key: Key, value: Value?, cost: Int, newer: Int, older: Int) {
            self.key = key; self.value = value; self.cost = cost; self.newer = newer; self.older = older
        }
    }

    /// The most cost the kept values may add up to (never negative).
    @inlinable public var budget: Int { _budget }
    @usableFromInline var _budget: Int
    /// The cost of the kept values.
    @inlinable public var costUsed: Int { _costUsed }
    @usableFromInline var _costUsed = 0
    /// Values dropped to stay within the budget.
    @inlinable public var evictions: Int { _evictions }
    @usableFromInline var _evictions = 0

    @usableFromInline var index: [Key: Int] = [:]
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var free: [Int] = []
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1

    @inlinable public init(budget: Int) { self._budget = Swift.max(0, budget) }

    @inlinable public var count: Int { index.count }

    @inlinable public func contains(_ key: Key) -> Bool { index[key] != nil }

    /// The value for `key`, made the most recently used; `nil` when not kept.
    @inlinable public mutating func value(for key: Key) -> Value? {
        guard let i = index[key] else { return nil }
        touch(i)
        return entries[i].value
    }

    /// Keeps `value` for `key` (replacing nothing: call after a failed
    /// lookup) when `cost` fits the budget, evicting the oldest as needed.
    @inlinable public mutating func insert(_ value: Value, for key: Key, cost: Int) {
        guard cost <= budget, index[key] == nil else { return }
        evict(toFit: cost)
        let entry = Entry(key: key, value: value, cost: cost, newer: -1, older: newest)
        let i: Int
        if let f = free.popLast() { entries[f] = entry; i = f } else { entries.append(entry); i = entries.count - 1 }
        if newest >= 0 { entries[newest].newer = i }
        newest = i
        if oldest < 0 { oldest = i }
        index[key] = i
        _costUsed += cost
    }

    /// Sets the budget (negative counts as 0) and evicts down to it.
    @inlinable public mutating func setBudget(_ newBudget: Int) {
        _budget = Swift.max(0, newBudget)
        evict(toFit: 0)
    }

    /// Drops every value (`evictions` stays).
    @inlinable public mutating func removeAll() {
        index.removeAll(); entries.removeAll(); free.removeAll()
        newest = -1; oldest = -1; _costUsed = 0
    }

    @inlinable mutating func touch(_ i: Int) {
        guard i != newest else { return }
        unlink(i)
        entries[i].older = newest
        entries[i].newer = -1
        if newest >= 0 { entries[newest].newer = i }
        newest = i
        if oldest < 0 { oldest = i }
    }

    @inlinable mutating func unlink(_ i: Int) {
        let newer = entries[i].newer, older = entries[i].older
        if newer >= 0 { entries[newer].older = older } else { newest = older }
        if older >= 0 { entries[older].newer = newer } else { oldest = newer }
    }

    /// Drops the oldest entries until `cost` more fits the budget.
    @inlinable mutating func evict(toFit cost: Int) {
        while costUsed + cost > budget, oldest >= 0 {
            let i = oldest
            unlink(i)
            index[entries[i].key] = nil
            _costUsed -= entries[i].cost
            entries[i].value = nil
            free.append(i)
            _evictions += 1
        }
    }
}
