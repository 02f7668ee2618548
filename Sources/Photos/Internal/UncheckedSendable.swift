/// Carries a value the compiler can't prove Sendable across a queue hop whose ordering makes
/// it safe (the value is only used on the other side), or a caller's closure that Apple's API
/// declares without `@Sendable` and this module calls from its own queues, one call at a time.
struct UncheckedSendable<Value>: @unchecked Sendable {
    // @unchecked Sendable: each use says why the hop is safe; the value is never used on both
    // sides at once.
    let value: Value
    init(_ value: Value) { self.value = value }
}
