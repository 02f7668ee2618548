import Photos
import UIKit

/// A runtime check of the sample apps that did not hold.
public struct SampleCheckFailure: Error, CustomStringConvertible {
    public let description: String
}

/// Runs the sample apps against the shared library, as a user would drive them, and checks
/// what they show. This module is compiled twice: in Swift 6 mode (`SampleApps`) and in Swift
/// 5 mode (`SampleApps5`), from the same files.
public enum SampleAppChecks {
    /// The language mode this copy of the apps was compiled in.
    public static var languageMode: String {
        #if swift(>=6)
            return "Swift 6"
        #else
            return "Swift 5"
        #endif
    }

    /// Runs every app's checks; `photos` are real photo files to import, `scratch` an empty
    /// folder for exports and backups. Reports each check passed through `log`.
    @MainActor
    public static func run(photos: [URL], scratch: URL, log: (String) -> Void) async throws {
        guard photos.count >= 4 else { throw SampleCheckFailure(description: "need at least 4 photos, got \(photos.count)") }
        // Apple's platforms call image handlers on the main thread; ported apps ask for it.
        PHImageManager.default().deliveryQueue = .main
        let mode = languageMode
        try await checkGrid(photos: photos, mode: mode, log: log)
        try await checkAlbums(photos: photos, mode: mode, log: log)
        try await checkPicker(photos: photos, scratch: scratch, mode: mode, log: log)
        try await checkSync(photos: photos, scratch: scratch, mode: mode, log: log)
        try await checkVideo(scratch: scratch, mode: mode, log: log)
        try await checkEditing(photos: photos, scratch: scratch, mode: mode, log: log)
        try await checkClips(scratch: scratch, mode: mode, log: log)
    }

    /// A clip made by ffmpeg from a lavfi source, or nil when ffmpeg is not installed.
    static func makeClip(_ source: String, named name: String, in folder: URL) throws -> URL? {
        let ffmpeg = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        guard FileManager.default.isExecutableFile(atPath: ffmpeg.path) else { return nil }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = folder.appendingPathComponent(name)
        let process = Process()
        process.executableURL = ffmpeg
        process.arguments = ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", source, "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SampleCheckFailure(description: "ffmpeg could not make \(name)") }
        return clip
    }

    /// Mean red, green and blue (0...255) of `image` over `rect`, and its pixels.
    static func pixels(_ image: CIImage, in rect: CGRect, context: CIContext) throws -> [UInt8] {
        guard let bitmap = context.createCGImage(image, from: rect), let data = bitmap.dataProvider?.data else {
            throw SampleCheckFailure(description: "\(image) could not be rendered")
        }
        return [UInt8](data)
    }

    /// Three-byte pixels as four-byte ones (opaque).
    static func rgba(fromRGB data: Data) -> [UInt8] {
        let bytes = [UInt8](data)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            out.append(bytes[index])
            out.append(bytes[index + 1])
            out.append(bytes[index + 2])
            out.append(255)
            index += 3
        }
        return out
    }

    static func meanRGB(_ bytes: [UInt8]) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        for index in stride(from: 0, to: bytes.count, by: 4) {
            for channel in 0..<3 { sums[channel] += Double(bytes[index + channel]) }
        }
        let count = Double(max(1, bytes.count / 4))
        return sums.map { $0 / count }
    }

    /// Every Core Image filter previewed on a photo, one committed at full size, a video edited
    /// through a Core Image composition, both reverted.
    @MainActor
    static func checkEditing(photos: [URL], scratch: URL, mode: String, log: (String) -> Void) async throws {
        let photo = try asset(try importPhotos([photos[1]])[0])
        let editor = FilterEditor(asset: photo)
        let input = try await editor.contentEditingInput()
        let context = CIContext()
        guard let display = input.displaySizeImage, let original = CIImage(image: display) else {
            throw SampleCheckFailure(description: "the editing input has no display image")
        }
        let originalBytes = try pixels(original, in: original.extent, context: context)
        for filter in FilterEditor.filters {
            let preview = try editor.preview(filter, on: input)
            guard !preview.extent.isEmpty, !preview.extent.isInfinite else {
                throw SampleCheckFailure(description: "\(filter.name)'s preview has extent \(preview.extent)")
            }
            if filter.name == "CICrop" || filter.name == "CIAffineTransform" {
                let expected = filter.name == "CICrop"
                    ? CGRect(x: 0, y: 0, width: 200, height: 150).intersection(original.extent)
                    : CGRect(x: 0, y: 0, width: original.extent.width / 2, height: original.extent.height / 2)
                guard preview.extent.integral == expected.integral else {
                    throw SampleCheckFailure(description: "\(filter.name)'s preview is \(preview.extent), not \(expected)")
                }
                continue
            }
            let bytes = try pixels(preview, in: original.extent, context: context)
            var difference = 0.0
            for index in 0..<min(bytes.count, originalBytes.count) where index % 4 != 3 {
                difference += abs(Double(bytes[index]) - Double(originalBytes[index]))
            }
            let mean = difference / Double(originalBytes.count / 4 * 3)
            guard mean > 0.3 else { throw SampleCheckFailure(description: "\(filter.name) changed nothing (mean difference \(mean))") }
        }
        log("\(mode) filter editor: \(FilterEditor.filters.count) filters previewed, each changed the photo")

        let output = try editor.output(applying: "CISepiaTone", to: input)
        try await editor.commit(output, to: photo)
        let edited = try asset(photo.localIdentifier)
        guard edited.hasAdjustments, edited.pixelWidth == photo.pixelWidth, edited.pixelHeight == photo.pixelHeight else {
            throw SampleCheckFailure(description: "the sepia edit was not committed at full size")
        }
        let current = try await editor.contentEditingInput()
        guard let renderedURL = current.fullSizeImageURL, let rendered = CIImage(contentsOf: renderedURL) else {
            throw SampleCheckFailure(description: "the edit's render can't be read")
        }
        let small = rendered.transformed(by: CGAffineTransform(scaleX: 0.1, y: 0.1))
        let mean = meanRGB(try pixels(small, in: small.extent.integral, context: context))
        guard mean[0] > mean[1], mean[1] > mean[2] else { throw SampleCheckFailure(description: "the committed edit is not sepia: \(mean)") }
        try await editor.revert(edited)
        guard !(try asset(photo.localIdentifier)).hasAdjustments else { throw SampleCheckFailure(description: "the revert kept the edit") }
        log("\(mode) filter editor: sepia committed at \(edited.pixelWidth)×\(edited.pixelHeight) (mean RGB \(mean.map { Int($0) })), then reverted")

        let folder = scratch.appendingPathComponent("edit-\(mode.replacingOccurrences(of: " ", with: ""))")
        guard let clip = try makeClip("testsrc2=size=320x240:rate=25:duration=2", named: "colour.mp4", in: folder) else {
            log("\(mode) filter editor: video skipped, ffmpeg is not installed")
            return
        }
        var identifier: String?
        try PHPhotoLibrary.shared().performChangesAndWait {
            identifier = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: clip)?.placeholderForCreatedAsset?.localIdentifier
        }
        let video = try asset(try require(identifier, "the clip's identifier"))
        let videoEditor = FilterEditor(asset: video)
        let videoOutput = try await videoEditor.videoOutput(for: try await videoEditor.contentEditingInput(), filterName: "CIPhotoEffectNoir")
        try await videoEditor.commit(videoOutput, to: video)
        let editedVideo = try asset(video.localIdentifier)
        guard editedVideo.hasAdjustments, abs(editedVideo.duration - 2) < 0.2 else {
            throw SampleCheckFailure(description: "the video edit was not committed (\(editedVideo.duration) s)")
        }
        let movie = try await videoEditor.contentEditingInput()
        guard let editedMovie = movie.audiovisualAsset else { throw SampleCheckFailure(description: "the edited video has no movie") }
        let frame = try AVAssetImageGenerator(asset: editedMovie).copyCGImage(at: CMTime(seconds: 1, preferredTimescale: 600), actualTime: nil)
        guard let frameData = frame.dataProvider?.data else { throw SampleCheckFailure(description: "no frame") }
        let frameBytes = [UInt8](frameData)
        let step = frame.bitsPerPixel / 8
        var coloured = 0
        for index in stride(from: 0, to: frameBytes.count, by: step) where abs(Int(frameBytes[index]) - Int(frameBytes[index + 2])) > 8 {
            coloured += 1
        }
        guard coloured == 0 else { throw SampleCheckFailure(description: "the noir video has \(coloured) coloured pixels at 1 s") }
        try await videoEditor.revert(editedVideo)
        log("\(mode) filter editor: a video edited through a Core Image composition (2 s, grey at 1 s), then reverted")

        // A Live Photo: a photo with a movie paired to it, every frame through a frame processor.
        guard let liveClip = try makeClip("testsrc2=size=320x240:rate=25:duration=1.5", named: "live.mov", in: folder) else { return }
        var liveIdentifier: String?
        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: photos[2], options: nil)
            request.addResource(with: .pairedVideo, fileURL: liveClip, options: nil)
            liveIdentifier = request.placeholderForCreatedAsset?.localIdentifier
        }
        let live = try asset(try require(liveIdentifier, "the Live Photo's identifier"))
        guard live.mediaSubtypes.contains(.photoLive) else { throw SampleCheckFailure(description: "the photo and movie did not make a Live Photo") }
        let liveEditor = FilterEditor(asset: live)
        let liveOutput = try await liveEditor.livePhotoOutput(for: try await liveEditor.contentEditingInput(), filterName: "CIPhotoEffectMono")
        try await liveEditor.commit(liveOutput, to: live)
        let editedLive = try asset(live.localIdentifier)
        let liveInput = try await liveEditor.contentEditingInput()
        guard editedLive.hasAdjustments, let editedPair = liveInput.livePhoto, let stillURL = liveInput.fullSizeImageURL,
            let still = CIImage(contentsOf: stillURL)
        else { throw SampleCheckFailure(description: "the Live Photo edit was not committed") }
        let stillSmall = still.transformed(by: CGAffineTransform(scaleX: 0.1, y: 0.1))
        let stillMean = meanRGB(try pixels(stillSmall, in: stillSmall.extent.integral, context: context))
        _ = editedPair
        guard let pairedResource = PHAssetResource.assetResources(for: editedLive).first(where: { $0.type == .fullSizePairedVideo }) else {
            throw SampleCheckFailure(description: "the edited Live Photo has no rendered movie")
        }
        let pairedCopy = folder.appendingPathComponent("live-edited.mov")
        try? FileManager.default.removeItem(at: pairedCopy)
        try await PHAssetResourceManager.default().writeData(for: pairedResource, toFile: pairedCopy, options: nil)
        let liveFrame = try AVAssetImageGenerator(asset: AVURLAsset(url: pairedCopy)).copyCGImage(at: CMTime(seconds: 0.7, preferredTimescale: 600), actualTime: nil)
        guard let liveData = liveFrame.dataProvider?.data else { throw SampleCheckFailure(description: "no frame of the Live Photo's movie") }
        let liveMean = meanRGB(rgba(fromRGB: liveData))
        guard abs(stillMean[0] - stillMean[2]) < 3, abs(liveMean[0] - liveMean[2]) < 3 else {
            throw SampleCheckFailure(description: "the Live Photo is not grey: still \(stillMean), movie \(liveMean)")
        }
        try await liveEditor.revert(editedLive)
        log("\(mode) filter editor: a Live Photo's still and movie edited by a frame processor (grey), then reverted")
    }

    /// A thumbnail strip and two clips trimmed into one.
    @MainActor
    static func checkClips(scratch: URL, mode: String, log: (String) -> Void) async throws {
        let folder = scratch.appendingPathComponent("clips-\(mode.replacingOccurrences(of: " ", with: ""))")
        guard let first = try makeClip("testsrc2=size=320x240:rate=25:duration=3", named: "first.mp4", in: folder),
            let second = try makeClip("color=c=blue:size=320x240:rate=25:duration=2", named: "second.mp4", in: folder)
        else {
            log("\(mode) clip strip: skipped, ffmpeg is not installed")
            return
        }
        let maker = ClipStripMaker()
        let strip = try await maker.thumbnails(of: AVURLAsset(url: first), count: 10, height: 60)
        guard strip.count == 10, strip.allSatisfy({ $0.width == 80 && $0.height == 60 }) else {
            throw SampleCheckFailure(description: "the strip has \(strip.count) thumbnails: \(strip.map { "\($0.width)×\($0.height)" })")
        }
        let joined = folder.appendingPathComponent("joined.mp4")
        try await maker.join(
            (AVURLAsset(url: first), CMTimeRange(start: CMTime(seconds: 0.5, preferredTimescale: 600), duration: CMTime(seconds: 1, preferredTimescale: 600))),
            (AVURLAsset(url: second), CMTimeRange(start: .zero, duration: CMTime(seconds: 1.5, preferredTimescale: 600))), to: joined)
        let result = AVURLAsset(url: joined)
        let duration = try await result.load(.duration)
        let end = try AVAssetImageGenerator(asset: result).copyCGImage(at: CMTime(seconds: 2, preferredTimescale: 600), actualTime: nil)
        guard let endData = end.dataProvider?.data else { throw SampleCheckFailure(description: "no frame") }
        let endMean = meanRGB(rgba(fromRGB: endData))
        guard abs(duration.seconds - 2.5) < 0.15, endMean[2] > endMean[0] + 100 else {
            throw SampleCheckFailure(description: "the joined clip lasts \(duration.seconds) s and ends \(endMean)")
        }
        log("\(mode) clip strip: 10 thumbnails of 80×60; two clips trimmed into one of \(String(format: "%.2f", duration.seconds)) s")
    }

    /// A clip made by ffmpeg (when installed), imported, read and exported as a video screen does.
    @MainActor
    static func checkVideo(scratch: URL, mode: String, log: (String) -> Void) async throws {
        let ffmpeg = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        guard FileManager.default.isExecutableFile(atPath: ffmpeg.path) else {
            log("\(mode) video: skipped, ffmpeg is not installed")
            return
        }
        let folder = scratch.appendingPathComponent("video-\(mode.replacingOccurrences(of: " ", with: ""))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = folder.appendingPathComponent("clip.mp4")
        let process = Process()
        process.executableURL = ffmpeg
        process.arguments = ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=2",
                             "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip.path]
        try process.run()
        process.waitUntilExit()
        var identifier: String?
        try PHPhotoLibrary.shared().performChangesAndWait {
            identifier = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: clip)?.placeholderForCreatedAsset?.localIdentifier
        }
        let model = VideoClipModel(asset: try asset(try identifier ?? { throw SampleCheckFailure(description: "the clip was not imported") }()))
        try await model.loadDetails()
        guard model.durationText == "0:02", model.displaySize == CGSize(width: 320, height: 240) else {
            throw SampleCheckFailure(description: "the video screen shows \(model.durationText), \(model.displaySize)")
        }
        await withCheckedContinuation { continuation in model.export(to: folder) { continuation.resume() } }
        guard let exported = model.exportedURL, FileManager.default.fileExists(atPath: exported.path) else {
            throw SampleCheckFailure(description: "the export failed: \(String(describing: model.exportError))")
        }
        log("\(mode) video: read (\(model.durationText), \(Int(model.displaySize.width))×\(Int(model.displaySize.height))) and exported")
    }

    // MARK: - The apps

    @MainActor
    static func checkGrid(photos: [URL], mode: String, log: (String) -> Void) async throws {
        _ = try importPhotos(photos)
        let grid = AssetGridViewController()
        let navigation = UINavigationController(rootViewController: grid)
        let visible = grid.collectionView.visibleItems.clamped(to: 0..<grid.fetchResult.count)
        try await waitUntil("the grid's visible cells have thumbnails") {
            visible.allSatisfy { item in
                guard let cell = grid.collectionView.cellForItem(at: IndexPath(item: item, section: 0)) as? GridViewCell,
                    let image = cell.thumbnailImage
                else { return false }
                let asset = grid.fetchResult.object(at: item)
                // Aspect fill: the short side covers the 160 px target, unless the photo is smaller.
                return min(image.size.width, image.size.height) >= min(160, CGFloat(min(asset.pixelWidth, asset.pixelHeight)))
                    && cell.representedAssetIdentifier == asset.localIdentifier
            }
        }
        log("\(mode) grid: \(visible.count) visible cells show their thumbnails")

        let before = grid.fetchResult.count
        let added = try asset(try importPhotos([photos[0]])[0])
        try await waitUntil("the grid shows the imported photo") {
            grid.collectionView.numberOfItemsShown == before + 1 && grid.fetchResult.contains(added)
        }
        grid.scroll(to: max(0, before - 5)..<(before + 1))
        try await waitUntil("the last cells have thumbnails after a scroll") {
            (grid.collectionView.cellForItem(at: IndexPath(item: before, section: 0)) as? GridViewCell)?.thumbnailImage != nil
        }
        log("\(mode) grid: an import arrives as an insertion, scrolled into view")

        // The asset view: favorite, then delete, as Apple's sample does.
        let detail = AssetViewController()
        detail.asset = added
        navigation.pushViewController(detail, animated: true)
        try await waitUntil("the asset view shows its image") { detail.imageView.image != nil }
        detail.toggleFavorite()
        try await waitUntil("the favorite shows in the asset view") {
            detail.asset.isFavorite && detail.favoriteButton.title == "♥︎"
        }
        log("\(mode) asset view: favorite toggled and shown")
        navigation.popViewController(animated: true)

        // Deleting the shown asset: the view unregisters in the completion handler and
        // force-unwraps objectAfterChanges in its observer, so it must never hear of the delete.
        for round in 0..<20 {
            let shown = try asset(try importPhotos([photos[round % photos.count]])[0])
            // Once the grid shows it, the import's delivery has begun, so the view opened next
            // hears only of later changes.
            try await waitUntil("the grid shows the photo to delete") { grid.fetchResult.contains(shown) }
            let view = AssetViewController()
            view.asset = shown
            navigation.pushViewController(view, animated: true)
            let seenBefore = view.changesSeen
            view.removeAsset()
            try await waitUntil("the asset view is popped after its delete") { navigation.topViewController === grid }
            try await waitUntil("the grid no longer shows the deleted photo") { !grid.fetchResult.contains(shown) }
            guard view.changesSeen == seenBefore else {
                throw SampleCheckFailure(description: "round \(round): an asset view unregistered in its completion handler heard of the delete")
            }
        }
        log("\(mode) asset view: 20 deletes, none reached the view its completion handler unregistered")
    }

    @MainActor
    static func checkAlbums(photos: [URL], mode: String, log: (String) -> Void) async throws {
        let identifiers = try importPhotos(Array(photos.prefix(3)))
        let list = AlbumListViewController()
        list.loadViewIfNeeded()
        let title = "\(mode) Trip \(UUID().uuidString.prefix(6))"
        list.addAlbum(titled: title)
        try await waitUntil("the new album is listed") { row(of: title, in: list) != nil }
        let album = try require(list.album(titled: title), "album \(title)")
        list.add(try identifiers.map { try asset($0) }, to: album)
        try await waitUntil("the album lists 3 photos") { row(of: title, in: list)?.detailTextLabel?.text == "3" }
        let order = PHAsset.fetchAssets(in: album, options: nil).map(\.localIdentifier)
        list.moveFirstAssetToEnd(of: album)
        try await waitUntil("the album's first photo moved to its end") {
            PHAsset.fetchAssets(in: album, options: nil).map(\.localIdentifier) == Array(order.dropFirst()) + [order[0]]
        }
        let renamed = title + " (renamed)"
        list.rename(album, to: renamed)
        try await waitUntil("the renamed album is listed") { row(of: renamed, in: list) != nil && row(of: title, in: list) == nil }
        list.delete(try require(list.album(titled: renamed), "album \(renamed)"))
        try await waitUntil("the deleted album is gone") { row(of: renamed, in: list) == nil }
        log("\(mode) album browser: created, filled, reordered, renamed and deleted an album, the list following each change")
    }

    @MainActor
    static func checkPicker(photos: [URL], scratch: URL, mode: String, log: (String) -> Void) async throws {
        let identifiers = try importPhotos(Array(photos.prefix(3)))
        let title = "\(mode) Picks \(UUID().uuidString.prefix(6))"
        var albumIdentifier: String?
        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
            request.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: Array(identifiers.prefix(2)), options: nil))
            albumIdentifier = request.placeholderForCreatedAssetCollection.localIdentifier
        }
        var configuration = PhotoPickerModel.Configuration()
        configuration.minimumPixelWidth = 100
        let picker = PhotoPickerModel(configuration: configuration)
        picker.loadAlbums()
        guard picker.albumSections.count == 2 else {
            throw SampleCheckFailure(description: "the picker lists \(picker.albumSections.count) album sections, not 2")
        }
        let userAlbums = picker.albumSections[1]
        var pickedAlbum: PHAssetCollection?
        userAlbums.enumerateObjects { collection, _, _ in
            if collection.localIdentifier == albumIdentifier { pickedAlbum = collection as? PHAssetCollection }
        }
        let album = try require(pickedAlbum, "the picker's album list has \(title)")
        log("\(mode) picker: smart and user albums listed through PHFetchResult<PHCollection>")

        picker.show(nil)
        var expected = 0
        PHAsset.fetchAssets(with: nil).enumerateObjects { asset, _, _ in
            if asset.mediaType == .image && asset.pixelWidth >= 100 && !asset.isHidden { expected += 1 }
        }
        guard picker.assets.count == expected else {
            throw SampleCheckFailure(description: "the picker's compound predicate found \(picker.assets.count) photos, not \(expected)")
        }
        let third = try asset(identifiers[2])
        for identifier in identifiers { picker.toggle(try asset(identifier)) }
        guard picker.selection.count == 3, !picker.selectionIndexes.contains(NSNotFound) else {
            throw SampleCheckFailure(description: "selection \(picker.selectionIndexes) in the whole library")
        }
        picker.show(album)
        guard picker.assets.count == 2, picker.assets.index(of: third) == NSNotFound else {
            throw SampleCheckFailure(description: "the album shows \(picker.assets.count) photos; index of the one outside it: \(picker.assets.index(of: third))")
        }
        picker.pruneSelection()
        guard picker.selection.map(\.localIdentifier) == Array(identifiers.prefix(2)) else {
            throw SampleCheckFailure(description: "pruning kept \(picker.selection.map(\.localIdentifier))")
        }
        log("\(mode) picker: compound predicates filter, index(of:) answers NSNotFound for a photo outside the album")

        let details = try require(picker.details(of: try asset(identifiers[0])), "details of the first photo")
        let size = try FileManager.default.attributesOfItem(atPath: photos[0].path)[.size] as? NSNumber
        guard details.filename == photos[0].lastPathComponent, details.byteCount == size?.int64Value, details.isLocal else {
            throw SampleCheckFailure(description: "KVC details \(details) for \(photos[0].lastPathComponent) of \(String(describing: size)) bytes")
        }
        let exportFolder = scratch.appendingPathComponent("\(mode.replacingOccurrences(of: " ", with: ""))-picker-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: exportFolder, withIntermediateDirectories: true)
        var exported: ([URL], [Error])?
        picker.exportSelection(to: exportFolder) { urls, errors in exported = (urls, errors) }
        try await waitUntil("the picker's selection is exported") { exported != nil }
        guard let (urls, errors) = exported, errors.isEmpty, urls.count == 2,
            try Data(contentsOf: exportFolder.appendingPathComponent(photos[0].lastPathComponent)) == Data(contentsOf: photos[0])
        else { throw SampleCheckFailure(description: "export: \(String(describing: exported))") }
        log("\(mode) picker: filename and fileSize read by key, the selection exported byte for byte")
    }

    @MainActor
    static func checkSync(photos: [URL], scratch: URL, mode: String, log: (String) -> Void) async throws {
        let suite = "VersionedClient.\(mode).\(UUID().uuidString)"
        guard let defaults = UserDefaults(suiteName: suite) else { throw SampleCheckFailure(description: "no defaults suite") }
        defer { defaults.removePersistentDomain(forName: suite) }
        let folder = scratch.appendingPathComponent("\(mode.replacingOccurrences(of: " ", with: ""))-backup-\(UUID().uuidString.prefix(6))")
        let first = try BackupSyncClient(defaults: defaults, folder: folder).sync()
        let total = PHAsset.fetchAssets(with: nil).count
        guard first.fullBackup, first.copied.count == total, total > 0 else {
            throw SampleCheckFailure(description: "the first sync copied \(first.copied.count) of \(total) assets")
        }
        log("\(mode) sync client: a full backup of \(total) assets, its change token archived")

        let inserted = try importPhotos([photos[1]])[0]
        let others = PHAsset.fetchAssets(with: nil).filter { $0.localIdentifier != inserted }
        let favorite = others[0], deleted = others[1]
        try PHPhotoLibrary.shared().performChangesAndWait {
            PHAssetChangeRequest(for: favorite).isFavorite = !favorite.isFavorite
            PHAssetChangeRequest.deleteAssets([deleted] as NSArray)
        }
        // The next launch: a new client, the token read back from the defaults.
        let second = try BackupSyncClient(defaults: defaults, folder: folder).sync()
        guard !second.fullBackup, second.copied == [inserted, favorite.localIdentifier], second.removed == [deleted.localIdentifier]
        else { throw SampleCheckFailure(description: "the incremental sync reported \(second)") }
        let copy = try Data(contentsOf: BackupSyncClient(defaults: defaults, folder: folder).backupFile(for: inserted))
        guard copy == (try Data(contentsOf: photos[1])) else { throw SampleCheckFailure(description: "the backup of \(inserted) differs") }
        let third = try BackupSyncClient(defaults: defaults, folder: folder).sync()
        guard third == BackupSyncClient.Report() else { throw SampleCheckFailure(description: "a sync with no changes reported \(third)") }
        log("\(mode) sync client: the next launch copied 1 new and 1 changed asset and removed 1 deleted")
    }

    // MARK: - Helpers

    /// Imports photo files in one change block; returns the new assets' identifiers.
    static func importPhotos(_ files: [URL]) throws -> [String] {
        var identifiers: [String] = []
        try PHPhotoLibrary.shared().performChangesAndWait {
            for file in files {
                if let placeholder = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file)?.placeholderForCreatedAsset {
                    identifiers.append(placeholder.localIdentifier)
                }
            }
        }
        guard identifiers.count == files.count else {
            throw SampleCheckFailure(description: "imported \(identifiers.count) of \(files.count) photos")
        }
        return identifiers
    }

    static func asset(_ identifier: String) throws -> PHAsset {
        guard let found = PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject else {
            throw SampleCheckFailure(description: "no asset \(identifier)")
        }
        return found
    }

    static func require<T>(_ value: T?, _ what: String) throws -> T {
        guard let value = value else { throw SampleCheckFailure(description: "missing: \(what)") }
        return value
    }

    @MainActor
    static func row(of title: String, in list: AlbumListViewController) -> UITableViewCell? {
        let section = AlbumListViewController.Section.userCollections.rawValue
        guard section < list.tableView.rows.count else { return nil }
        return list.tableView.rows[section].first { $0.textLabel?.text == title }
    }

    /// Waits, letting the main queue run, until `condition` holds; fails after 30 s.
    @MainActor
    static func waitUntil(_ what: String, _ condition: () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(30)
        while try !condition() {
            guard Date() < deadline else { throw SampleCheckFailure(description: "timed out waiting until \(what)") }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }
}
