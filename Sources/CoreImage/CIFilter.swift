import CoreGraphics
public import Foundation

/// An image filter by name, configured with key-value inputs, as Core Image's `CIFilter`:
///
/// ```swift
/// let sepia = CIFilter(name: "CISepiaTone")!
/// sepia.setValue(image, forKey: kCIInputImageKey)
/// sepia.setValue(0.8, forKey: kCIInputIntensityKey)
/// let output = sepia.outputImage
/// ```
///
/// or with the typed builders (`CIFilter.sepiaTone()`, see `CIFilterBuiltins.swift`).
///
/// Linux: the filters are the ones photo editing uses (``CIFilter/filterNames(inCategory:)``
/// lists them), each with Apple's name, input keys and defaults; `CIKernel`s (custom Metal
/// or GLSL kernels) are not available. `setValue(_:forKey:)` takes numbers of any Swift type
/// or `NSNumber`, `CIVector`s, `CIColor`s, and for transforms a `CGAffineTransform` (where Apple
/// takes an `NSValue`). Setting an unknown key raises no exception: it is ignored, as reading
/// it answers nil. The builders are in the `CoreImage` module itself, so `import CoreImage`
/// brings them, and `import CoreImage.CIFilterBuiltins` compiles as Apple's code writes it.
open class CIFilter: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: as on Apple's platforms, a filter is configured by one thread at a
    // time; its values are behind a lock so a reader on another thread sees whole values.
    let definition: FilterDefinition
    private let values: LockedValues

    init(definition: FilterDefinition) {
        self.definition = definition
        values = LockedValues(definition.defaults)
        super.init()
    }

    /// The filter with this name and its default inputs; nil for a name not in the catalogue.
    public convenience init?(name: String) {
        guard let definition = FilterDefinition.byName[name] else { return nil }
        self.init(definition: definition)
    }

    public convenience init?(name: String, parameters params: [String: Any]?) {
        self.init(name: name)
        for (key, value) in params ?? [:] { setValue(value, forKey: key) }
    }

    /// Every filter in `category` (`kCICategoryColorAdjustment`, ...; nil or
    /// `kCICategoryBuiltIn` for all).
    public class func filterNames(inCategory category: String?) -> [String] {
        filterNames(inCategories: category.map { [$0] })
    }

    /// Every filter in all of `categories`.
    public class func filterNames(inCategories categories: [String]?) -> [String] {
        FilterDefinition.all.filter { definition in (categories ?? []).allSatisfy { definition.categories.contains($0) } }.map(\.name)
    }

    /// The filter's name (`"CISepiaTone"`).
    public var name: String { definition.name }

    /// The names of its inputs, `inputImage` first.
    public var inputKeys: [String] { definition.inputs.map(\.key) }

    /// `["outputImage"]`.
    public var outputKeys: [String] { [kCIOutputImageKey] }

    /// Its name, categories and each input's class and default, under Apple's attribute keys.
    public var attributes: [String: Any] {
        var attributes: [String: Any] = [kCIAttributeFilterName: name, kCIAttributeFilterCategories: definition.categories]
        for input in definition.inputs {
            var described: [String: Any] = [kCIAttributeClass: input.kind.className]
            if let value = input.defaultValue { described[kCIAttributeDefault] = value }
            attributes[input.key] = described
        }
        return attributes
    }

    /// Sets an input. Numbers may be any Swift number or `NSNumber`.
    open func setValue(_ value: Any?, forKey key: String) {
        guard definition.inputs.contains(where: { $0.key == key }) else { return }
        values.set(key, value)
    }

    /// An input's value, or for `outputImage` the output.
    open func value(forKey key: String) -> Any? {
        key == kCIOutputImageKey ? outputImage : values.get(key)
    }

    /// Puts every input back to its default.
    open func setDefaults() {
        values.reset(definition.defaults)
    }

    /// The filtered image (a recipe: nothing is computed until a context renders it); nil while
    /// a required image input is missing.
    open var outputImage: CIImage? {
        definition.make(FilterValues(values.snapshot()))
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = CIFilter(definition: definition)
        copy.values.reset(values.snapshot())
        return copy
    }

    public override var description: String { "<CIFilter \(name)>" }

    /// The inputs behind a lock (values are whatever callers set: images, numbers, vectors).
    final class LockedValues: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: Any]

        init(_ values: [String: Any]) { self.values = values }

        func get(_ key: String) -> Any? { locked { values[key] } }
        func set(_ key: String, _ value: Any?) { locked { values[key] = value } }
        func reset(_ new: [String: Any]) { locked { values = new } }
        func snapshot() -> [String: Any] { locked { values } }

        private func locked<Result>(_ body: () -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body()
        }
    }
}

/// Input and attribute keys, with Apple's values.
public let kCIInputImageKey = "inputImage"
public let kCIInputBackgroundImageKey = "inputBackgroundImage"
public let kCIInputIntensityKey = "inputIntensity"
public let kCIInputRadiusKey = "inputRadius"
public let kCIInputSaturationKey = "inputSaturation"
public let kCIInputBrightnessKey = "inputBrightness"
public let kCIInputContrastKey = "inputContrast"
public let kCIInputEVKey = "inputEV"
public let kCIInputAngleKey = "inputAngle"
public let kCIInputColorKey = "inputColor"
public let kCIInputCenterKey = "inputCenter"
public let kCIInputTransformKey = "inputTransform"
public let kCIInputAmountKey = "inputAmount"
public let kCIInputSharpnessKey = "inputSharpness"
public let kCIInputExtentKey = "inputExtent"
public let kCIOutputImageKey = "outputImage"
public let kCIAttributeFilterName = "CIAttributeFilterName"
public let kCIAttributeFilterCategories = "CIAttributeFilterCategories"
public let kCIAttributeClass = "CIAttributeClass"
public let kCIAttributeDefault = "CIAttributeDefault"
public let kCICategoryColorAdjustment = "CICategoryColorAdjustment"
public let kCICategoryColorEffect = "CICategoryColorEffect"
public let kCICategoryBlur = "CICategoryBlur"
public let kCICategorySharpen = "CICategorySharpen"
public let kCICategoryGeometryAdjustment = "CICategoryGeometryAdjustment"
public let kCICategoryCompositeOperation = "CICategoryCompositeOperation"
public let kCICategoryStillImage = "CICategoryStillImage"
public let kCICategoryVideo = "CICategoryVideo"
public let kCICategoryBuiltIn = "CICategoryBuiltIn"
