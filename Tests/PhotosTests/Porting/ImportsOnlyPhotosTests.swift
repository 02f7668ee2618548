// This file imports Photos and nothing else from Apple's frameworks: it compiles only while
// `import Photos` re-exports Foundation, as Apple's Photos module does.
import Photos
import PhotosTestSupport
import Testing

@Suite("import Photos brings Foundation")
struct ImportsOnlyPhotosTests {
    @Test func predicatesDataDefaultsAndArchivesNeedNoOtherImport() throws {
        let temporary = try TemporaryLibrary()
        try temporary.seed([SyntheticAsset(isFavorite: true), SyntheticAsset()])
        let options = PHFetchOptions()
        options.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "isFavorite == YES"), NSPredicate(format: "mediaType == %d", PHAssetMediaType.image.rawValue),
        ])
        let favorites = temporary.library.withCurrent { PHAsset.fetchAssets(with: options) }
        #expect(favorites.count == 1)

        // A sync client keeps its change token archived in UserDefaults.
        let suite = "photokit-tests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let token = temporary.library.currentChangeToken
        let archived: Data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        defaults.set(archived, forKey: "changeToken")
        let stored = try #require(defaults.data(forKey: "changeToken"))
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: stored))
        #expect(restored.description == token.description)
        #expect(try Array(temporary.library.fetchPersistentChanges(since: restored)).isEmpty)
    }
}
