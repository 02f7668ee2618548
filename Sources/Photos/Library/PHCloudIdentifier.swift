public import Foundation

/// An identifier of an asset that holds across copies of a library, where a local identifier
/// may not: Apple's for matching one iCloud photo on several devices.
///
/// Linux: `stringValue` is `UUID:001:HASH`, the asset's UUID (which `photos migrate`, a
/// restored backup and every instance sharing a database keep) and the SHA-256 of its
/// original, so an identifier also finds the same photo imported into another library (by its
/// bytes) when the UUID is unknown there. Identifiers of assets whose original has no recorded
/// hash (referenced files added before hashing) carry the UUID alone. Collections have none.
public final class PHCloudIdentifier: NSObject, NSSecureCoding, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    public let stringValue: String

    public init(stringValue: String) {
        self.stringValue = stringValue
        super.init()
    }

    /// Apple's placeholder for an identifier that was not found (deprecated there).
    public static let notFoundIdentifier = PHCloudIdentifier(stringValue: "")

    /// The asset's UUID and its original's hash (empty when it has none).
    init(assetUUID: String, contentHash: String?) {
        stringValue = "\(assetUUID):001:\(contentHash ?? "")"
        super.init()
    }

    /// The parts of ``stringValue``: the UUID and the hash (nil when absent).
    var parts: (uuid: String, hash: String?)? {
        let fields = stringValue.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[1] == "001", UUID(uuidString: String(fields[0])) != nil else { return nil }
        return (String(fields[0]), fields[2].isEmpty ? nil : String(fields[2]))
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(stringValue as NSString, forKey: "stringValue")
    }

    public init?(coder: NSCoder) {
        guard let value = coder.decodeObject(of: NSString.self, forKey: "stringValue") else { return nil }
        stringValue = value as String
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? PHCloudIdentifier)?.stringValue == stringValue
    }

    public override var hash: Int { stringValue.hashValue }
    public override var description: String { "<PHCloudIdentifier \(stringValue)>" }
}

extension PHPhotoLibrary {
    /// The cloud identifier of each asset named, or why there is none: `.identifierNotFound`
    /// for an identifier that names no asset this library shows.
    public func cloudIdentifierMappings(forLocalIdentifiers localIdentifiers: [String]) -> [String: Result<PHCloudIdentifier, any Error>] {
        let found = withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: localIdentifiers, options: Self.everything) }
        var assets: [String: PHAsset] = [:]
        found.enumerateObjects { asset, _, _ in assets[asset.localIdentifier] = asset }
        let hashes: [String: String]
        do {
            hashes = try store.originalContentHashes(assetUUIDs: assets.values.map(\.uuid))
        } catch {
            let failure = PHPhotosError(.internalError, "Can't read the originals' hashes: \(error.message)")
            return Dictionary(localIdentifiers.map { ($0, .failure(failure)) }, uniquingKeysWith: { first, _ in first })
        }
        var mappings: [String: Result<PHCloudIdentifier, any Error>] = [:]
        for identifier in localIdentifiers {
            if let asset = assets[identifier] {
                mappings[identifier] = .success(PHCloudIdentifier(assetUUID: asset.uuid, contentHash: hashes[asset.uuid]))
            } else {
                mappings[identifier] = .failure(
                    PHPhotosError(.identifierNotFound, "No asset has the local identifier \(identifier)", localIdentifiers: [identifier]))
            }
        }
        return mappings
    }

    /// The local identifier of the asset each cloud identifier names: by its UUID, else by its
    /// original's bytes; `.identifierNotFound` when neither finds one,
    /// `.multipleIdentifiersFound` when the bytes match several assets.
    public func localIdentifierMappings(for cloudIdentifiers: [PHCloudIdentifier]) -> [PHCloudIdentifier: Result<String, any Error>] {
        var mappings: [PHCloudIdentifier: Result<String, any Error>] = [:]
        let byUUID = cloudIdentifiers.compactMap { $0.parts.map { LocalIdentifier.asset($0.uuid) } }
        let found = withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: byUUID, options: Self.everything) }
        var known: Set<String> = []
        found.enumerateObjects { asset, _, _ in known.insert(asset.localIdentifier) }
        for cloud in cloudIdentifiers {
            guard let (uuid, hash) = cloud.parts else {
                mappings[cloud] = .failure(PHPhotosError(.identifierNotFound, "\(cloud.stringValue) is not a cloud identifier"))
                continue
            }
            if known.contains(LocalIdentifier.asset(uuid)) {
                mappings[cloud] = .success(LocalIdentifier.asset(uuid))
                continue
            }
            mappings[cloud] = resolve(hash: hash, of: cloud)
        }
        return mappings
    }

    /// The one asset this library shows whose original has `hash`.
    private func resolve(hash: String?, of cloud: PHCloudIdentifier) -> Result<String, any Error> {
        guard let hash else {
            return .failure(PHPhotosError(.identifierNotFound, "No asset matches \(cloud.stringValue)"))
        }
        let candidates: [String]
        do {
            candidates = try store.assetUUIDs(originalContentHash: hash).map(LocalIdentifier.asset)
        } catch {
            return .failure(PHPhotosError(.internalError, "Can't look up \(cloud.stringValue): \(error.message)"))
        }
        var visible: [String] = []
        withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: candidates, options: Self.everything) }
            .enumerateObjects { asset, _, _ in visible.append(asset.localIdentifier) }
        switch visible.count {
        case 0: return .failure(PHPhotosError(.identifierNotFound, "No asset matches \(cloud.stringValue)"))
        case 1: return .success(visible[0])
        default:
            return .failure(
                PHPhotosError(.multipleIdentifiersFound, "\(visible.count) assets match \(cloud.stringValue)", localIdentifiers: visible))
        }
    }

    /// Fetch options that leave no asset out (hidden ones, unpicked burst frames).
    private static var everything: PHFetchOptions {
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        return options
    }
}
