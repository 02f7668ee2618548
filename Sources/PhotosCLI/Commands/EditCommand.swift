import ArgumentParser
import Foundation
import Photos
import PhotosLocking

/// `photos edit ID --rotate 90 --exposure 0.3`: an edit in the built-in adjustment format,
/// through the content-editing API an app would use, resuming an earlier edit in that format.
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit a photo: rotate, crop, exposure, saturation, filter (the original is kept).",
        discussion: """
            Edits resume: an asset already edited this way starts from its original and earlier \
            recipe, so `photos edit ID --rotate 90` twice turns it 180°. --crop is in unit \
            coordinates of the rotated photo. An edit back to nothing reverts the asset; \
            `photos revert ID` drops any edit.
            """)

    @OptionGroup var options: LibraryOptions

    @Argument(help: "The asset (identifier, UUID or unique prefix).")
    var identifier: String

    @Option(help: "Turn clockwise by 90, 180 or 270 degrees (added to an earlier turn).")
    var rotate: Int?

    @Option(help: "Keep x,y,width,height of the (rotated) photo, in unit coordinates.")
    var crop: String?

    @Option(help: "Exposure change in stops, like 0.5 or -1.")
    var exposure: Double?

    @Option(help: "Saturation factor: 0 grey, 1 unchanged, 1.5 more colourful.")
    var saturation: Double?

    @Option(help: "none, mono or sepia.")
    var filter: String?

    func run() throws {
        guard rotate != nil || crop != nil || exposure != nil || saturation != nil || filter != nil else {
            throw CLIError("say what to change: --rotate, --crop, --exposure, --saturation or --filter")
        }
        if let rotate, rotate % 90 != 0 { throw CLIError("--rotate \(rotate): give a multiple of 90 degrees") }
        if let exposure, !(-5...5).contains(exposure) { throw CLIError("--exposure \(exposure): give -5...5 stops") }
        if let saturation, !(0...4).contains(saturation) { throw CLIError("--saturation \(saturation): give 0...4") }
        let chosenFilter = try filter.map { name in
            guard let value = PHBasicAdjustments.Filter(rawValue: name.lowercased()) else {
                throw CLIError("--filter \(name): choose none, mono or sepia")
            }
            return value
        }
        let cropRect = try crop.map(ThumbnailCommand.parseCrop)

        let library = try options.open()
        try library.withCurrent {
            let asset = try ObjectLookup.asset(identifier)
            let input = try Self.input(for: asset)
            var recipe = input.adjustmentData.flatMap(PHBasicAdjustments.init(adjustmentData:)) ?? PHBasicAdjustments()
            if let rotate { recipe.quarterTurns = ((recipe.quarterTurns + rotate / 90) % 4 + 4) % 4 }
            if let cropRect { recipe.crop = cropRect }
            if let exposure { recipe.exposure = exposure }
            if let saturation { recipe.saturation = saturation }
            if let chosenFilter { recipe.filter = chosenFilter }

            if recipe.isIdentity && input.adjustmentData != nil {
                try commit(library, "revert") { PHAssetChangeRequest(for: asset).revertAssetContentToOriginal() }
                print("\(asset.localIdentifier): back to the original")
                return
            }
            guard let image = input.fullSizeImageURL else { throw CLIError("\(identifier) has no image to edit") }
            let output = PHContentEditingOutput(contentEditingInput: input)
            defer { try? FileManager.default.removeItem(at: output.renderedContentURL) }
            do {
                try recipe.render(imageAt: image, to: output.renderedContentURL)
            } catch {
                throw CLIError("\(error)")
            }
            output.adjustmentData = recipe.adjustmentData
            try commit(library, "edit") { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
            let edited = PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject
            print("\(asset.localIdentifier): \(Self.describe(recipe)) → \(edited?.pixelWidth ?? 0) x \(edited?.pixelHeight ?? 0)")
        }
    }

    /// The editing input, resuming an edit in the built-in format.
    static func input(for asset: PHAsset) throws -> PHContentEditingInput {
        let options = PHContentEditingInputRequestOptions()
        options.canHandleAdjustmentData = PHBasicAdjustments.canHandle
        let result = Mutex<(PHContentEditingInput?, String?)>((nil, nil))
        let done = DispatchSemaphore(value: 0)
        asset.requestContentEditingInput(with: options) { input, info in
            let error = (info[PHContentEditingInputErrorKey] as? PHPhotosError)?.localizedDescription
            result.withLock { $0 = (input, error) }
            done.signal()
        }
        done.wait()
        let (input, error) = result.withLock { $0 }
        guard let input else { throw CLIError("can't edit \(asset.localIdentifier): \(error ?? "no input")") }
        return input
    }

    static func describe(_ recipe: PHBasicAdjustments) -> String {
        var parts: [String] = []
        if recipe.quarterTurns != 0 { parts.append("rotated \(recipe.quarterTurns * 90)°") }
        if let crop = recipe.crop {
            parts.append(String(format: "cropped to %.2f,%.2f %.2fx%.2f", crop.minX, crop.minY, crop.width, crop.height))
        }
        if recipe.exposure != 0 { parts.append(String(format: "exposure %+.2f EV", recipe.exposure)) }
        if recipe.saturation != 1 { parts.append(String(format: "saturation ×%.2f", recipe.saturation)) }
        if recipe.filter != .none { parts.append(recipe.filter.rawValue) }
        return parts.isEmpty ? "no change" : parts.joined(separator: ", ")
    }
}
