import Photos

/// Backs the library up into a folder, one file per asset, and keeps it in step with the
/// library's persistent change history from one run to the next: the last change token is
/// archived in the client's defaults.
final class BackupSyncClient {
    struct Report: Equatable {
        var fullBackup = false
        var copied: Set<String> = []
        var removed: Set<String> = []
    }

    let defaults: UserDefaults
    let folder: URL
    private let tokenKey = "BackupSyncClient.lastChangeToken"

    init(defaults: UserDefaults, folder: URL) {
        self.defaults = defaults
        self.folder = folder
    }

    /// The token of the last change backed up, archived in the defaults.
    var lastToken: PHPersistentChangeToken? {
        get {
            guard let data = defaults.data(forKey: tokenKey) else { return nil }
            return try? NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: data)
        }
        set {
            guard let token = newValue else {
                defaults.removeObject(forKey: tokenKey)
                return
            }
            let data = try? NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
            defaults.set(data, forKey: tokenKey)
        }
    }

    /// Copies what changed since the last run (everything on the first), removes what was
    /// deleted, and remembers where it got to.
    func sync() throws -> Report {
        let library = PHPhotoLibrary.shared()
        var report = Report()
        guard let token = lastToken else { return try fullBackup() }
        let changes: PHPersistentChangeFetchResult
        do {
            changes = try library.fetchPersistentChanges(since: token)
        } catch let error as PHPhotosError where error.code == .persistentChangeTokenExpired {
            // The history no longer reaches back that far: start over.
            return try fullBackup()
        }
        var inserted = Set<String>(), updated = Set<String>(), deleted = Set<String>()
        var newest = token
        for change in changes {
            let details = try change.changeDetails(for: .asset)
            inserted.formUnion(details.insertedLocalIdentifiers)
            updated.formUnion(details.updatedLocalIdentifiers)
            deleted.formUnion(details.deletedLocalIdentifiers)
            newest = change.changeToken
        }
        let toCopy = inserted.union(updated).subtracting(deleted)
        let assets = PHAsset.fetchAssets(withLocalIdentifiers: Array(toCopy), options: nil)
        report.copied = try copy(assets)
        for identifier in deleted {
            let file = backupFile(for: identifier)
            if FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.removeItem(at: file)
                report.removed.insert(identifier)
            }
        }
        lastToken = newest
        return report
    }

    /// Where an asset's backup goes: one file per asset, named after its identifier.
    func backupFile(for localIdentifier: String) -> URL {
        folder.appendingPathComponent(localIdentifier.replacingOccurrences(of: "/", with: "_"))
    }

    private func fullBackup() throws -> Report {
        let token = PHPhotoLibrary.shared().currentChangeToken
        var report = Report(fullBackup: true)
        report.copied = try copy(PHAsset.fetchAssets(with: nil))
        lastToken = token
        return report
    }

    /// Streams each asset's original into its backup file; returns the identifiers copied.
    private func copy(_ assets: PHFetchResult<PHAsset>) throws -> Set<String> {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var copied = Set<String>()
        var failure: Error?
        let finished = DispatchSemaphore(value: 0)
        assets.enumerateObjects { asset, _, _ in
            guard let resource = PHAssetResource.assetResources(for: asset).first else { return }
            var bytes = Data()
            PHAssetResourceManager.default().requestData(for: resource, options: nil, dataReceivedHandler: { chunk in
                bytes.append(chunk)
            }, completionHandler: { error in
                if let error = error {
                    failure = error
                } else {
                    _ = FileManager.default.createFile(atPath: self.backupFile(for: asset.localIdentifier).path, contents: bytes)
                    copied.insert(asset.localIdentifier)
                }
                finished.signal()
            })
            finished.wait()
        }
        if let failure = failure { throw failure }
        return copied
    }
}
