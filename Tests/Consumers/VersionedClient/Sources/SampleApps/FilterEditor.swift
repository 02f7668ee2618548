import CoreImage
import CoreImage.CIFilterBuiltins
import Photos

/// Apple's photo-editing sample, reduced to its model: previews every Core Image filter a photo
/// app offers on the display-size image, commits one at full size through
/// `PHContentEditingOutput`, edits a video through a Core Image video composition, and
/// reverts. Its imports are Apple's sample's, `CoreImage.CIFilterBuiltins` included.
@MainActor
final class FilterEditor {
    static let formatIdentifier = "com.example.apple-samplecode.FilterEditor"

    /// Each filter with the inputs the sample's sliders set.
    static let filters: [(name: String, parameters: [String: Any])] = [
        ("CIColorControls", [kCIInputSaturationKey: 1.6, kCIInputContrastKey: 1.2]),
        ("CIExposureAdjust", [kCIInputEVKey: 0.7]),
        ("CIGammaAdjust", ["inputPower": 0.7]),
        ("CIHueAdjust", [kCIInputAngleKey: 1.2]),
        ("CITemperatureAndTint", ["inputNeutral": CIVector(x: 4500, y: 0), "inputTargetNeutral": CIVector(x: 6500, y: 0)]),
        ("CIVibrance", [kCIInputAmountKey: 1.0]),
        ("CIHighlightShadowAdjust", ["inputShadowAmount": 0.8, "inputHighlightAmount": 0.5, kCIInputRadiusKey: 2.0]),
        ("CIColorMatrix", ["inputRVector": CIVector(x: 0, y: 1, z: 0, w: 0), "inputGVector": CIVector(x: 1, y: 0, z: 0, w: 0)]),
        ("CISepiaTone", [kCIInputIntensityKey: 0.9]),
        ("CIColorMonochrome", [kCIInputColorKey: CIColor(red: 0.2, green: 0.4, blue: 0.9)]),
        ("CIPhotoEffectChrome", [:]), ("CIPhotoEffectFade", [:]), ("CIPhotoEffectInstant", [:]), ("CIPhotoEffectMono", [:]),
        ("CIPhotoEffectNoir", [:]), ("CIPhotoEffectProcess", [:]), ("CIPhotoEffectTonal", [:]), ("CIPhotoEffectTransfer", [:]),
        ("CIVignette", [kCIInputIntensityKey: 1.5, kCIInputRadiusKey: 0.8]),
        ("CIGaussianBlur", [kCIInputRadiusKey: 6.0]),
        ("CISharpenLuminance", ["inputSharpness": 2.0]),
        ("CIUnsharpMask", [kCIInputRadiusKey: 3.0, kCIInputIntensityKey: 2.0]),
        ("CICrop", ["inputRectangle": CIVector(x: 0, y: 0, z: 200, w: 150)]),
        ("CIAffineTransform", [kCIInputTransformKey: CGAffineTransform(scaleX: 0.5, y: 0.5)]),
        ("CIStraightenFilter", [kCIInputAngleKey: 0.2]),
        // A watermark: a translucent red veil over the photo (the photo is the background).
        ("CISourceOverCompositing", [:]),
    ]

    let asset: PHAsset
    private let context = CIContext()

    init(asset: PHAsset) {
        self.asset = asset
    }

    func contentEditingInput() async throws -> PHContentEditingInput {
        let options = PHContentEditingInputRequestOptions()
        options.isNetworkAccessAllowed = true
        return try await withCheckedThrowingContinuation { continuation in
            asset.requestContentEditingInput(with: options) { input, info in
                if let input = input {
                    continuation.resume(returning: input)
                } else {
                    let error = info[PHContentEditingInputErrorKey] as? Error
                    continuation.resume(throwing: error ?? SampleCheckFailure(description: "no editing input"))
                }
            }
        }
    }

    /// The filter's preview on the display-size image, cropped to it.
    func preview(_ filter: (name: String, parameters: [String: Any]), on input: PHContentEditingInput) throws -> CIImage {
        guard let display = input.displaySizeImage, let image = CIImage(image: display) else {
            throw SampleCheckFailure(description: "the input has no display image")
        }
        if filter.name == "CISourceOverCompositing" {
            let veil = CIImage(color: CIColor(red: 1, green: 0, blue: 0, alpha: 0.3)).cropped(to: image.extent)
            let composite = CIFilter(name: filter.name, parameters: [kCIInputImageKey: veil, kCIInputBackgroundImageKey: image])
            guard let output = composite?.outputImage else { throw SampleCheckFailure(description: "no composite") }
            return output
        }
        let filtered = image.applyingFilter(filter.name, parameters: filter.parameters)
        return filter.name == "CICrop" || filter.name == "CIAffineTransform" ? filtered : filtered.cropped(to: image.extent)
    }

    /// The edit at full size, as Apple's sample renders it.
    func output(applying filterName: String, to input: PHContentEditingInput) throws -> PHContentEditingOutput {
        let output = PHContentEditingOutput(contentEditingInput: input)
        guard let url = input.fullSizeImageURL, let source = CIImage(contentsOf: url) else {
            throw SampleCheckFailure(description: "the input has no full-size image")
        }
        let inputImage = source.oriented(forExifOrientation: input.fullSizeImageOrientation)
        let filter = CIFilter.sepiaTone()
        filter.inputImage = inputImage
        filter.intensity = 1
        guard let outputImage = filter.outputImage else { throw SampleCheckFailure(description: "\(filterName) gave no image") }
        try context.writeJPEGRepresentation(
            of: outputImage, to: output.renderedContentURL, colorSpace: inputImage.colorSpace ?? CGColorSpaceCreateDeviceRGB())
        output.adjustmentData = PHAdjustmentData(formatIdentifier: Self.formatIdentifier, formatVersion: "1.0", data: Data(filterName.utf8))
        return output
    }

    /// A video's edit: its movie exported through a Core Image video composition.
    func videoOutput(for input: PHContentEditingInput, filterName: String) async throws -> PHContentEditingOutput {
        guard let avAsset = input.audiovisualAsset else { throw SampleCheckFailure(description: "the video's input has no movie") }
        let output = PHContentEditingOutput(contentEditingInput: input)
        let composition = AVVideoComposition(asset: avAsset) { request in
            let filtered = request.sourceImage.applyingFilter(filterName)
            request.finish(with: filtered, context: nil)
        }
        guard let session = AVAssetExportSession(asset: avAsset, presetName: AVAssetExportPresetHighestQuality) else {
            throw SampleCheckFailure(description: "no export session")
        }
        session.videoComposition = composition
        try await session.export(to: output.renderedContentURL, as: .mov)
        output.adjustmentData = PHAdjustmentData(formatIdentifier: Self.formatIdentifier, formatVersion: "1.0", data: Data(filterName.utf8))
        return output
    }

    /// A Live Photo's edit: the still and every frame of its movie through the filter.
    func livePhotoOutput(for input: PHContentEditingInput, filterName: String) async throws -> PHContentEditingOutput {
        guard let context = PHLivePhotoEditingContext(livePhotoEditingInput: input) else {
            throw SampleCheckFailure(description: "the input is not a Live Photo's")
        }
        context.frameProcessor = { frame, _ in
            frame.image.applyingFilter(filterName)
        }
        let output = PHContentEditingOutput(contentEditingInput: input)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            context.saveLivePhoto(to: output, options: nil) { success, error in
                if success {
                    continuation.resume()
                } else {
                    continuation.resume(throwing: error ?? SampleCheckFailure(description: "the Live Photo was not saved"))
                }
            }
        }
        output.adjustmentData = PHAdjustmentData(formatIdentifier: Self.formatIdentifier, formatVersion: "1.0", data: Data(filterName.utf8))
        return output
    }

    func commit(_ output: PHContentEditingOutput, to asset: PHAsset) async throws {
        try await PHPhotoLibrary.shared().performChanges {
            PHAssetChangeRequest(for: asset).contentEditingOutput = output
        }
    }

    func revert(_ asset: PHAsset) async throws {
        try await PHPhotoLibrary.shared().performChanges {
            PHAssetChangeRequest(for: asset).revertAssetContentToOriginal()
        }
    }
}
