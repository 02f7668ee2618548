package import Foundation

/// A Swift value a statement can bind: integers and booleans as integers, dates as seconds
/// since 1970, text as text.
package protocol StoreValueConvertible {
    var storeValue: StoreValue { get }
}

extension StoreValue: StoreValueConvertible {
    package var storeValue: StoreValue { self }
}

extension Int64: StoreValueConvertible {
    package var storeValue: StoreValue { .integer(self) }
}

extension Int: StoreValueConvertible {
    package var storeValue: StoreValue { .integer(Int64(self)) }
}

extension Int32: StoreValueConvertible {
    package var storeValue: StoreValue { .integer(Int64(self)) }
}

extension Bool: StoreValueConvertible {
    package var storeValue: StoreValue { .integer(self ? 1 : 0) }
}

extension Double: StoreValueConvertible {
    package var storeValue: StoreValue { .real(self) }
}

extension String: StoreValueConvertible {
    package var storeValue: StoreValue { .text(self) }
}

extension Date: StoreValueConvertible {
    package var storeValue: StoreValue { .real(timeIntervalSince1970) }
}

extension Optional: StoreValueConvertible where Wrapped: StoreValueConvertible {
    package var storeValue: StoreValue { self?.storeValue ?? .null }
}
