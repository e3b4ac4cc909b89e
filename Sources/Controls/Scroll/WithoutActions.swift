import FBRuntime

/// Runs `body` with implicit animations off: inside a transaction that
/// already disables them, directly; else in `Transaction.withoutActions`.
/// Each `Transaction.begin` allocates, and the scroll view's helpers nest
/// (a drag move places the offset, the cells, the spinner and the
/// indicators): only the outermost opens a transaction.
func withoutImplicitAnimations<T>(_ body: () -> T) -> T {
    if Transaction.disableActions { return body() }
    return Transaction.withoutActions(body)
}
