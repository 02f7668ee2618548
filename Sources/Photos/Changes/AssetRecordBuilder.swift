import Foundation
import Imaging
import PhotosStore

/// Makes the row of a new asset from its staged resources' metadata and the request's edits.
enum AssetRecordBuilder {
    static func newAsset(uuid: String, resources: [StagedResource], edit: AssetEdit, now: Date) throws(PHPhotosError) -> NewAsset {
        guard let primary = resources.first(where: { $0.type == .photo }) ?? resources.first(where: { $0.type == .video })
        else {
            throw PHPhotosError(.invalidResource, "An asset needs a photo or video resource")
        }
        let metadata = primary.metadata
        let isVideo = primary.type == .video
        var subtypes = PHAssetMediaSubtype()
        var traits = AssetTraits()
        var playback: PHAsset.PlaybackStyle = isVideo ? .video : .image

        if resources.contains(where: { $0.type == .pairedVideo }) {
            subtypes.insert(.photoLive)
            playback = .livePhoto
        }
        if isVideo { subtypes.formUnion(MediaSubtypeEvidence.videoSubtypes(metadata)) }
        if !isVideo {
            subtypes.formUnion(MediaSubtypeEvidence.photoSubtypes(metadata))
        }
        if !isVideo, metadata.isAnimated {
            traits.insert(.animated)
            playback = .imageAnimated
        }
        if metadata.isFrontCamera { traits.insert(.selfPortrait) }
        if resources.contains(where: { $0.metadata.format.isRAW }) { traits.insert(.raw) }

        let location = metadata.location.map {
            LocationRecord(
                latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude,
                horizontalAccuracy: $0.horizontalAccuracy, verticalAccuracy: $0.altitude == nil ? nil : 0,
                timestamp: $0.timestamp)
        }
        var record = AssetRecord(
            uuid: uuid, mediaType: isVideo ? PHAssetMediaType.video.rawValue : PHAssetMediaType.image.rawValue,
            mediaSubtypes: Int(subtypes.rawValue), sourceType: Int(PHAssetSourceType.typeUserLibrary.rawValue),
            pixelWidth: metadata.orientedPixelWidth, pixelHeight: metadata.orientedPixelHeight,
            creationDate: metadata.captureDate ?? primary.fileModificationDate ?? now,
            creationTimeZoneOffset: metadata.captureTimeZoneOffset, modificationDate: now, addedDate: now,
            location: location, duration: isVideo ? metadata.duration : 0, playbackStyle: playback.rawValue,
            uniformTypeIdentifier: primary.uniformTypeIdentifier, originalFilename: primary.originalFilename,
            traits: traits.rawValue)
        if let creationDate = edit.creationDate { record.creationDate = creationDate }
        if let location = edit.location { record.location = location }
        if let isFavorite = edit.isFavorite { record.isFavorite = isFavorite }
        if let isHidden = edit.isHidden { record.isHidden = isHidden }
        if let burstIdentifier = edit.burstIdentifier { record.burstIdentifier = burstIdentifier }
        if let representsBurst = edit.representsBurst { record.representsBurst = representsBurst }
        if let selection = edit.burstSelectionTypes { record.burstSelectionTypes = selection }

        let files = resources.map { resource in
            let suffix = resource.type == primary.type ? "" : "_\(resource.type.rawValue)"
            return NewResource(
                type: resource.type.rawValue, uniformTypeIdentifier: resource.uniformTypeIdentifier,
                originalFilename: resource.originalFilename, stagedFile: resource.stagedFile,
                relativePath: resource.referencedFile.map { $0.isFileURL ? $0.path : $0.absoluteString } ?? "originals/\(uuid.prefix(1))/\(uuid)\(suffix).\(resource.fileExtension)",
                fileSize: resource.fileSize, pixelWidth: resource.metadata.orientedPixelWidth,
                pixelHeight: resource.metadata.orientedPixelHeight, contentHash: resource.contentHash,
                contentSignature: resource.contentSignature,
                fileModificationDate: resource.referencedFile == nil ? nil : resource.fileModificationDate)
        }
        let camera = CameraInfo(make: metadata.make, model: metadata.model, lens: metadata.lensModel)
        let words = metadata.descriptive
        let description = DescriptionInfo(title: words.title, caption: words.caption, keywords: words.keywords)
        return NewAsset(record: record, resources: files, camera: camera, description: description)
    }
}
