
// Core Image's typed filter builders (`CIFilter.sepiaTone()`, ...) and their protocols, with
// Apple's names and property types. Linux: they are in the CoreImage module itself; Swift
// modules have no submodules, so `import CoreImage.CIFilterBuiltins` resolves to an empty Clang
// submodule whose overlay is this module (Sources/CoreImageSubmodules), and `import CoreImage`
// alone brings the builders too.

/// What every builder's filter has: its output.
public protocol CIFilterProtocol: AnyObject {
    var outputImage: CIImage? { get }
}

/// A filter with an input image.
public protocol CIFilterWithInputImage: CIFilterProtocol {
    var inputImage: CIImage? { get set }
}

public protocol CIColorControls: CIFilterWithInputImage {
    var saturation: Float { get set }
    var brightness: Float { get set }
    var contrast: Float { get set }
}

public protocol CIExposureAdjust: CIFilterWithInputImage {
    var ev: Float { get set }
}

public protocol CIGammaAdjust: CIFilterWithInputImage {
    var power: Float { get set }
}

public protocol CIHueAdjust: CIFilterWithInputImage {
    var angle: Float { get set }
}

public protocol CITemperatureAndTint: CIFilterWithInputImage {
    var neutral: CIVector { get set }
    var targetNeutral: CIVector { get set }
}

public protocol CIVibrance: CIFilterWithInputImage {
    var amount: Float { get set }
}

public protocol CIHighlightShadowAdjust: CIFilterWithInputImage {
    var radius: Float { get set }
    var shadowAmount: Float { get set }
    var highlightAmount: Float { get set }
}

public protocol CIColorMatrix: CIFilterWithInputImage {
    var rVector: CIVector { get set }
    var gVector: CIVector { get set }
    var bVector: CIVector { get set }
    var aVector: CIVector { get set }
    var biasVector: CIVector { get set }
}

public protocol CISepiaTone: CIFilterWithInputImage {
    var intensity: Float { get set }
}

public protocol CIColorMonochrome: CIFilterWithInputImage {
    var color: CIColor { get set }
    var intensity: Float { get set }
}

public protocol CIPhotoEffect: CIFilterWithInputImage {
    var extrapolate: Bool { get set }
}

public protocol CIVignette: CIFilterWithInputImage {
    var intensity: Float { get set }
    var radius: Float { get set }
}

public protocol CIGaussianBlur: CIFilterWithInputImage {
    var radius: Float { get set }
}

public protocol CISharpenLuminance: CIFilterWithInputImage {
    var sharpness: Float { get set }
    var radius: Float { get set }
}

public protocol CIUnsharpMask: CIFilterWithInputImage {
    var radius: Float { get set }
    var intensity: Float { get set }
}

public protocol CIStraighten: CIFilterWithInputImage {
    var angle: Float { get set }
}

public protocol CICompositeOperation: CIFilterWithInputImage {
    var backgroundImage: CIImage? { get set }
}

/// The builders' filter: one class whose properties read and write the inputs by Apple's
/// keys, each builder handing it out as `CIFilter & <protocol>`.
final class CIBuiltinFilter: CIFilter, @unchecked Sendable {
    /// A number input as `Float` (any number type may have been set).
    private func float(_ key: String) -> Float { Float(FilterValues.number(value(forKey: key))) }

    var inputImage: CIImage? { get { value(forKey: kCIInputImageKey) as? CIImage } set { setValue(newValue, forKey: kCIInputImageKey) } }

    var saturation: Float { get { float("inputSaturation") } set { setValue(newValue, forKey: "inputSaturation") } }
    var brightness: Float { get { float("inputBrightness") } set { setValue(newValue, forKey: "inputBrightness") } }
    var contrast: Float { get { float("inputContrast") } set { setValue(newValue, forKey: "inputContrast") } }
    var ev: Float { get { float("inputEV") } set { setValue(newValue, forKey: "inputEV") } }
    var power: Float { get { float("inputPower") } set { setValue(newValue, forKey: "inputPower") } }
    var angle: Float { get { float("inputAngle") } set { setValue(newValue, forKey: "inputAngle") } }
    var neutral: CIVector { get { value(forKey: "inputNeutral") as? CIVector ?? CIVector([]) } set { setValue(newValue, forKey: "inputNeutral") } }
    var targetNeutral: CIVector { get { value(forKey: "inputTargetNeutral") as? CIVector ?? CIVector([]) } set { setValue(newValue, forKey: "inputTargetNeutral") } }
    var amount: Float { get { float("inputAmount") } set { setValue(newValue, forKey: "inputAmount") } }
    var radius: Float { get { float("inputRadius") } set { setValue(newValue, forKey: "inputRadius") } }
    var shadowAmount: Float { get { float("inputShadowAmount") } set { setValue(newValue, forKey: "inputShadowAmount") } }
    var highlightAmount: Float { get { float("inputHighlightAmount") } set { setValue(newValue, forKey: "inputHighlightAmount") } }
    var rVector: CIVector { get { value(forKey: "inputRVector") as? CIVector ?? CIVector([]) } set { setValue(newValue, forKey: "inputRVector") } }
    var gVector: CIVector { get { value(forKey: "inputGVector") as? CIVector ?? CIVector([]) } set { setValue(newValue, forKey: "inputGVector") } }
    var bVector: CIVector { get { value(forKey: "inputBVector") as? CIVector ?? CIVector([]) } set { setValue(newValue, forKey: "inputBVector") } }
    var aVector: CIVector { get { value(forKey: "inputAVector") as? CIVector ?? CIVector([]) } set { setValue(newValue, forKey: "inputAVector") } }
    var biasVector: CIVector { get { value(forKey: "inputBiasVector") as? CIVector ?? CIVector([]) } set { setValue(newValue, forKey: "inputBiasVector") } }
    var intensity: Float { get { float("inputIntensity") } set { setValue(newValue, forKey: "inputIntensity") } }
    var color: CIColor { get { value(forKey: "inputColor") as? CIColor ?? CIColor.black } set { setValue(newValue, forKey: "inputColor") } }
    var extrapolate: Bool { get { float("inputExtrapolate") != 0 } set { setValue(newValue, forKey: "inputExtrapolate") } }
    var sharpness: Float { get { float("inputSharpness") } set { setValue(newValue, forKey: "inputSharpness") } }
    var backgroundImage: CIImage? { get { value(forKey: "inputBackgroundImage") as? CIImage } set { setValue(newValue, forKey: "inputBackgroundImage") } }
}

extension CIBuiltinFilter: CIColorControls, CIExposureAdjust, CIGammaAdjust, CIHueAdjust, CITemperatureAndTint, CIVibrance, CIHighlightShadowAdjust, CIColorMatrix, CISepiaTone, CIColorMonochrome, CIPhotoEffect, CIVignette, CIGaussianBlur, CISharpenLuminance, CIUnsharpMask, CIStraighten, CICompositeOperation {}

extension CIFilter {
    /// `CIColorControls` with its default inputs.
    public class func colorControls() -> any CIFilter & CIColorControls { CIBuiltinFilter(definition: FilterDefinition.byName["CIColorControls"]!) }
    /// `CIExposureAdjust` with its default inputs.
    public class func exposureAdjust() -> any CIFilter & CIExposureAdjust { CIBuiltinFilter(definition: FilterDefinition.byName["CIExposureAdjust"]!) }
    /// `CIGammaAdjust` with its default inputs.
    public class func gammaAdjust() -> any CIFilter & CIGammaAdjust { CIBuiltinFilter(definition: FilterDefinition.byName["CIGammaAdjust"]!) }
    /// `CIHueAdjust` with its default inputs.
    public class func hueAdjust() -> any CIFilter & CIHueAdjust { CIBuiltinFilter(definition: FilterDefinition.byName["CIHueAdjust"]!) }
    /// `CITemperatureAndTint` with its default inputs.
    public class func temperatureAndTint() -> any CIFilter & CITemperatureAndTint { CIBuiltinFilter(definition: FilterDefinition.byName["CITemperatureAndTint"]!) }
    /// `CIVibrance` with its default inputs.
    public class func vibrance() -> any CIFilter & CIVibrance { CIBuiltinFilter(definition: FilterDefinition.byName["CIVibrance"]!) }
    /// `CIHighlightShadowAdjust` with its default inputs.
    public class func highlightShadowAdjust() -> any CIFilter & CIHighlightShadowAdjust { CIBuiltinFilter(definition: FilterDefinition.byName["CIHighlightShadowAdjust"]!) }
    /// `CIColorMatrix` with its default inputs.
    public class func colorMatrix() -> any CIFilter & CIColorMatrix { CIBuiltinFilter(definition: FilterDefinition.byName["CIColorMatrix"]!) }
    /// `CISepiaTone` with its default inputs.
    public class func sepiaTone() -> any CIFilter & CISepiaTone { CIBuiltinFilter(definition: FilterDefinition.byName["CISepiaTone"]!) }
    /// `CIColorMonochrome` with its default inputs.
    public class func colorMonochrome() -> any CIFilter & CIColorMonochrome { CIBuiltinFilter(definition: FilterDefinition.byName["CIColorMonochrome"]!) }
    /// `CIPhotoEffectChrome` with its default inputs.
    public class func photoEffectChrome() -> any CIFilter & CIPhotoEffect { CIBuiltinFilter(definition: FilterDefinition.byName["CIPhotoEffectChrome"]!) }
    /// `CIPhotoEffectFade` with its default inputs.
    public class func photoEffectFade() -> any CIFilter & CIPhotoEffect { CIBuiltinFilter(definition: FilterDefinition.byName["CIPhotoEffectFade"]!) }
    /// `CIPhotoEffectInstant` with its default inputs.
    public class func photoEffectInstant() -> any CIFilter & CIPhotoEffect { CIBuiltinFilter(definition: FilterDefinition.byName["CIPhotoEffectInstant"]!) }
    /// `CIPhotoEffectMono` with its default inputs.
    public class func photoEffectMono() -> any CIFilter & CIPhotoEffect { CIBuiltinFilter(definition: FilterDefinition.byName["CIPhotoEffectMono"]!) }
    /// `CIPhotoEffectNoir` with its default inputs.
    public class func photoEffectNoir() -> any CIFilter & CIPhotoEffect { CIBuiltinFilter(definition: FilterDefinition.byName["CIPhotoEffectNoir"]!) }
    /// `CIPhotoEffectProcess` with its default inputs.
    public class func photoEffectProcess() -> any CIFilter & CIPhotoEffect { CIBuiltinFilter(definition: FilterDefinition.byName["CIPhotoEffectProcess"]!) }
    /// `CIPhotoEffectTonal` with its default inputs.
    public class func photoEffectTonal() -> any CIFilter & CIPhotoEffect { CIBuiltinFilter(definition: FilterDefinition.byName["CIPhotoEffectTonal"]!) }
    /// `CIPhotoEffectTransfer` with its default inputs.
    public class func photoEffectTransfer() -> any CIFilter & CIPhotoEffect { CIBuiltinFilter(definition: FilterDefinition.byName["CIPhotoEffectTransfer"]!) }
    /// `CIVignette` with its default inputs.
    public class func vignette() -> any CIFilter & CIVignette { CIBuiltinFilter(definition: FilterDefinition.byName["CIVignette"]!) }
    /// `CIGaussianBlur` with its default inputs.
    public class func gaussianBlur() -> any CIFilter & CIGaussianBlur { CIBuiltinFilter(definition: FilterDefinition.byName["CIGaussianBlur"]!) }
    /// `CISharpenLuminance` with its default inputs.
    public class func sharpenLuminance() -> any CIFilter & CISharpenLuminance { CIBuiltinFilter(definition: FilterDefinition.byName["CISharpenLuminance"]!) }
    /// `CIUnsharpMask` with its default inputs.
    public class func unsharpMask() -> any CIFilter & CIUnsharpMask { CIBuiltinFilter(definition: FilterDefinition.byName["CIUnsharpMask"]!) }
    /// `CIStraightenFilter` with its default inputs.
    public class func straighten() -> any CIFilter & CIStraighten { CIBuiltinFilter(definition: FilterDefinition.byName["CIStraightenFilter"]!) }
    /// `CISourceOverCompositing` with its default inputs.
    public class func sourceOverCompositing() -> any CIFilter & CICompositeOperation { CIBuiltinFilter(definition: FilterDefinition.byName["CISourceOverCompositing"]!) }
}
