import Foundation
import Photos

/// The favorites predicate, `NSPredicate(format: "isFavorite == YES")`.
///
/// Foundation on Linux marks `NSPredicate(format:)` unavailable; the Photos module adds its
/// own. Until that lands, the call doesn't compile, so it sits behind the
/// `PHOTOS_PREDICATE_FORMAT` condition, which `run-store-benchmark.sh` sets when
/// `Sources/Photos` declares an `init(format:` initializer. Without it the favorites measure is
/// reported as not run. With it, a fetch that returns every asset (the parser's placeholder
/// that accepts everything) is reported as such instead of being timed.
enum FavoritesPredicate {
    static let format = "isFavorite == YES"

    static func make() -> NSPredicate? {
        #if PHOTOS_PREDICATE_FORMAT
            NSPredicate(format: format)
        #else
            nil
        #endif
    }

    /// Whether this build has the real initializer compiled in.
    static var isCompiledIn: Bool { make() != nil }
}
