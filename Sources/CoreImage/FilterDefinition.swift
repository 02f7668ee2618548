import CoreGraphics
import Foundation

/// One filter of the catalogue: its name, categories, inputs with Apple's keys and defaults,
/// and how it makes its output from them.
struct FilterDefinition: Sendable {
    enum Kind: Sendable {
        case image, number, vector, color, transform

        var className: String {
            switch self {
            case .image: "CIImage"
            case .number: "NSNumber"
            case .vector: "CIVector"
            case .color: "CIColor"
            case .transform: "NSAffineTransform"
            }
        }
    }

    struct Input: @unchecked Sendable {
        // @unchecked Sendable: defaults are immutable values (numbers, CIVector, CIColor).
        let key: String
        let kind: Kind
        let defaultValue: Any?
    }

    let name: String
    let categories: [String]
    let inputs: [Input]
    let make: @Sendable (FilterValues) -> CIImage?

    var defaults: [String: Any] {
        Dictionary(uniqueKeysWithValues: inputs.compactMap { input in input.defaultValue.map { (input.key, $0) } })
    }

    static let byName: [String: FilterDefinition] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}

/// A filter's inputs as its `make` reads them: numbers of any type, vectors, colours.
struct FilterValues {
    let values: [String: Any]

    init(_ values: [String: Any]) { self.values = values }

    var image: CIImage? { values[kCIInputImageKey] as? CIImage }

    func image(_ key: String) -> CIImage? { values[key] as? CIImage }

    func number(_ key: String) -> Double { Self.number(values[key]) }

    /// A number of any Swift type or `NSNumber` as a `Double`; 0 for anything else.
    static func number(_ value: Any?) -> Double {
        switch value {
        case let value as Double: value
        case let value as Float: Double(value)
        case let value as CGFloat: Double(value)
        case let value as Int: Double(value)
        case let value as NSNumber: value.doubleValue
        case let value as Bool: value ? 1 : 0
        default: 0
        }
    }

    func vector(_ key: String) -> CIVector {
        switch values[key] {
        case let vector as CIVector: vector
        case let point as CGPoint: CIVector(cgPoint: point)
        case let rect as CGRect: CIVector(cgRect: rect)
        default: CIVector([])
        }
    }

    func color(_ key: String) -> CIColor { values[key] as? CIColor ?? .black }

    func transform(_ key: String) -> CGAffineTransform {
        switch values[key] {
        case let transform as CGAffineTransform: transform
        case let vector as CIVector where vector.count >= 6: vector.cgAffineTransformValue
        default: .identity
        }
    }
}
