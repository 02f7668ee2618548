import ArgumentParser
import Foundation
import Photos
import PhotosLocking

/// `photos thumbnail ID --size 256x256 -o out.jpg`: one image of an asset, through
/// `PHImageManager`, as an app would ask for it.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write an image of an asset at a size (JPEG, PNG or WebP, by the output's extension).",
        discussion: """
            The image comes from PHImageManager with the options given: --mode fit (inside the size) \
            or fill (covering it), --resize fast (at or above the size), exact (exactly the size; \
            fill crops) or none (the nearest shrink-on-load scale), --crop x,y,w,h in unit \
            coordinates of the upright photo (implies --resize exact). --size max for the full size.
            """)

    @OptionGroup var options: LibraryOptions

    @Argument(help: "The asset (identifier, UUID or unique prefix).")
    var identifier: String

    @Option(help: "Target size in pixels, WIDTHxHEIGHT, or max.")
    var size = "256x256"

    @Option(help: "fit or fill.")
    var mode = "fit"

    @Option(help: "fast, exact or none.")
    var resize = "fast"

    @Option(help: "A crop in unit coordinates of the upright photo: x,y,width,height.")
    var crop: String?

    @Option(help: "current, unadjusted or original.")
    var version = "current"

    @Option(name: [.customShort("o"), .long], help: "Where to write the image (.jpg, .png or .webp).")
    var output: String

    @Option(help: "JPEG or WebP quality, 1...100.")
    var quality = 85

    func run() throws {
        let targetSize = try Self.parseSize(size)
        let request = PHImageRequestOptions()
        request.isSynchronous = true
        request.deliveryMode = .highQualityFormat
        // An original in a bucket is fetched when no thumbnail or preview answers.
        request.isNetworkAccessAllowed = true
        request.resizeMode = try Self.choice(resize, "--resize", ["fast": .fast, "exact": .exact, "none": .none])
        request.version = try Self.choice(version, "--version", ["current": .current, "unadjusted": .unadjusted, "original": .original])
        if let crop {
            request.normalizedCropRect = try Self.parseCrop(crop)
            request.resizeMode = .exact
        }
        let contentMode: PHImageContentMode = try Self.choice(mode, "--mode", ["fit": .aspectFit, "fill": .aspectFill])
        let destination = URL(fileURLWithPath: output)
        let format = destination.pathExtension.lowercased()
        guard ["jpg", "jpeg", "png", "webp"].contains(format) else {
            throw CLIError("-o \(output): name a .jpg, .png or .webp file")
        }
        guard (1...100).contains(quality) else { throw CLIError("--quality must be 1...100, not \(quality)") }

        let library = try options.open(forReading: true)
        let delivered = Mutex<(image: UIImage?, error: String?)>((nil, nil))
        try library.withCurrent {
            let asset = try ObjectLookup.asset(identifier, includeDeleted: true)
            PHImageManager.default().requestImage(for: asset, targetSize: targetSize, contentMode: contentMode, options: request) {
                image, info in
                let error = (info?[PHImageErrorKey] as? PHPhotosError)?.localizedDescription
                delivered.withLock { $0 = (image, error) }
            }
        }
        let (image, error) = delivered.withLock { $0 }
        guard let image else {
            throw CLIError("can't make an image of \(identifier): \(error ?? "no image")")
        }
        let data: Data? =
            switch format {
            case "png": image.pngData()
            case "webp": image.webpData(quality: CGFloat(quality) / 100)
            default: image.jpegData(compressionQuality: CGFloat(quality) / 100)
            }
        guard let data else { throw CLIError("can't encode the image as \(format)") }
        do {
            try data.write(to: destination, options: .atomic)
        } catch {
            throw CLIError("can't write \(output): \(error.localizedDescription)")
        }
        print("\(output): \(image.pixelWidth) x \(image.pixelHeight)")
    }

    static func parseSize(_ text: String) throws -> CGSize {
        if text.lowercased() == "max" { return PHImageManagerMaximumSize }
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 && $0 <= 100_000 }) else {
            throw CLIError("--size \(text): give WIDTHxHEIGHT in pixels (like 256x256) or max")
        }
        return CGSize(width: parts[0], height: parts[1])
    }

    static func parseCrop(_ text: String) throws -> CGRect {
        let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, parts.allSatisfy({ (0...1).contains($0) }), parts[2] > 0, parts[3] > 0 else {
            throw CLIError("--crop \(text): give x,y,width,height between 0 and 1 (like 0.25,0,0.5,0.5)")
        }
        return CGRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
    }

    static func choice<T>(_ value: String, _ option: String, _ choices: [String: T]) throws -> T {
        guard let chosen = choices[value.lowercased()] else {
            throw CLIError("\(option) \(value): choose \(choices.keys.sorted().joined(separator: ", "))")
        }
        return chosen
    }
}
