import Foundation
import PhotosStore

extension PHImageManager {
    /// Requests a video asset's movie as an `AVAsset`: an `AVURLAsset` of the version asked
    /// for. `resultHandler` runs once, on a background queue, with the asset (or `nil` and
    /// ``PHImageErrorKey``), `nil` for the audio mix, and an info dictionary with Apple's keys.
    ///
    /// Linux: slow-motion videos are delivered as `AVURLAsset`s of their file too (Apple
    /// delivers an `AVComposition` with the slow-motion ramps and an audio mix; code that
    /// casts to `AVURLAsset` to reach the file, which crashes there for slow-motion videos,
    /// works here). A Live Photo's movie is read with ``PHAssetResourceManager`` (its
    /// `.pairedVideo` resource), as on Apple's platforms; this request fails for photos with
    /// `PHPhotosError.Code.requestNotSupportedForAsset`.
    @discardableResult
    public func requestAVAsset(
        forVideo asset: PHAsset, options: PHVideoRequestOptions?,
        resultHandler: @escaping (AVAsset?, AVAudioMix?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let handler = UncheckedSendable(resultHandler)
        return requestMovie(asset, options: options, prepare: { url in AVURLAsset(url: url) as AVAsset }) { asset, info in
            handler.value(asset, nil, info)
        }
    }

    /// Requests a video asset's movie as an `AVPlayerItem`, read and ready to play
    /// (`status == .readyToPlay`, its duration known). Otherwise as
    /// ``requestAVAsset(forVideo:options:resultHandler:)``.
    @discardableResult
    public func requestPlayerItem(
        forVideo asset: PHAsset, options: PHVideoRequestOptions?,
        resultHandler: @escaping (AVPlayerItem?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let handler = UncheckedSendable(resultHandler)
        return requestMovie(
            asset, options: options,
            prepare: { url in
                let asset = AVURLAsset(url: url)
                _ = try asset.movieDescription()
                return UncheckedSendable(AVPlayerItem(asset: asset))
            }
        ) { item, info in
            handler.value(item?.value, info)
        }
    }

    /// Requests an `AVAssetExportSession` for a video asset's movie with one of the
    /// `AVAssetExportPreset…` names, ready for its `outputURL` and `outputFileType` to be set
    /// and `exportAsynchronously` to be called. An unknown preset fails with
    /// `PHPhotosError.Code.requestNotSupportedForAsset` naming the presets. Otherwise as
    /// ``requestAVAsset(forVideo:options:resultHandler:)``.
    @discardableResult
    public func requestExportSession(
        forVideo asset: PHAsset, options: PHVideoRequestOptions?, exportPreset: String,
        resultHandler: @escaping (AVAssetExportSession?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let handler = UncheckedSendable(resultHandler)
        return requestMovie(
            asset, options: options,
            prepare: { url in
                guard let session = AVAssetExportSession(asset: AVURLAsset(url: url), presetName: exportPreset) else {
                    throw PHPhotosError(
                        .requestNotSupportedForAsset,
                        "'\(exportPreset)' is not an export preset; use one of \(AVAssetExportSession.allExportPresets().joined(separator: ", "))")
                }
                return session
            }
        ) { session, info in
            handler.value(session, info)
        }
    }

    /// Resolves the movie file off the caller's thread, makes the delivered object, and calls
    /// `deliver` once (or with the cancellation when cancelled first).
    private func requestMovie<Delivered: Sendable>(
        _ asset: PHAsset, options: PHVideoRequestOptions?, prepare: @escaping @Sendable (URL) throws -> Delivered,
        deliver: @escaping @Sendable (Delivered?, [AnyHashable: Any]) -> Void
    ) -> PHImageRequestID {
        let options = (options?.copy() as? PHVideoRequestOptions) ?? PHVideoRequestOptions()
        let requestID = Self.makeRequestID()
        let request = mediaRequests.start(requestID) {
            var info = Self.info(requestID, degraded: false)
            info[PHImageCancelledKey] = NSNumber(value: true)
            let cancelled = UncheckedInfo(value: info)
            MediaRequests.queue.async { deliver(nil, cancelled.value) }
        }
        let settings = UncheckedSendable(options)
        MediaRequests.queue.async { [mediaRequests] in
            defer { mediaRequests.finish(requestID) }
            guard !request.isSettled else { return }
            let result: Result<Delivered, PHPhotosError>
            do {
                let url = try Self.movieFile(of: asset, options: settings.value, request: request)
                result = .success(try prepare(url))
            } catch let error as PHPhotosError {
                result = .failure(error)
            } catch {
                result = .failure(PHPhotosError(.invalidResource, "Can't read the movie of \(asset.localIdentifier): \(error)"))
            }
            guard request.settle() else { return }
            switch result {
            case .success(let delivered): deliver(delivered, Self.info(requestID, degraded: false))
            case .failure(let error): deliver(nil, Self.info(requestID, degraded: false, error: error))
            }
        }
        return requestID
    }

    /// The movie a request delivers: the version's file, or the browser rendition for the
    /// medium and fast modes when one has been made.
    static func movieFile(of asset: PHAsset, options: PHVideoRequestOptions, request: MediaRequests.Request) throws(PHPhotosError) -> URL {
        guard asset.mediaType == .video else {
            throw PHPhotosError(
                .requestNotSupportedForAsset,
                "\(asset.localIdentifier) is not a video; a Live Photo's movie is its .pairedVideo resource (PHAssetResourceManager)")
        }
        let current = options.version == .current
        if current, options.deliveryMode == .mediumQualityFormat || options.deliveryMode == .fastFormat,
            let library = asset.library, let rendition = VideoRendition.existingFile(of: asset, in: library)
        {
            return rendition
        }
        return try AssetFiles.local(
            AssetFiles.movieTypes(of: asset, current: current), of: asset, networkAllowed: options.isNetworkAccessAllowed,
            progress: request.stopping(options.progressHandler)
        ).url
    }
}
