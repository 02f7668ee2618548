import Foundation

/// How much longer tests may take than in a plain build: `PHOTOKIT_TEST_TIME_SCALE` (an integer,
/// default 1). `make tsan` sets 10, as ThreadSanitizer slows every memory access and the live
/// server tests then wait far longer for their sockets. Multiply a test's `.timeLimit` by it.
public enum TestTimeScale {
    public static let factor: Int = {
        guard let value = ProcessInfo.processInfo.environment["PHOTOKIT_TEST_TIME_SCALE"], let factor = Int(value), factor > 0 else {
            return 1
        }
        return factor
    }()
}
