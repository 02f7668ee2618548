import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// `PHAsset.fetchAssets(matching:options:)` over the search index (issue 37), on either engine:
/// the words of files (written by exiftool), file names, albums and places; times and kinds;
/// the index kept in the change's transaction; odd queries answered, never an error.
@Suite("Search index")
struct SearchIndexTests {
    /// Imports `files` (names in the scratch folder, each given exiftool `arguments`) and
    /// returns their local identifiers, in order.
    static func importFiles(_ temporary: TemporaryLibrary, _ files: [(name: String, arguments: [String])]) throws -> [String] {
        var urls: [URL] = []
        for file in files {
            let url = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent(file.name), width: 64, height: 48)
            if !file.arguments.isEmpty {
                _ = try ExternalTool.exiftool(["-q", "-overwrite_original", "-codedcharacterset=utf8"] + file.arguments + [url.path])
            }
            urls.append(url)
        }
        var identifiers: [String] = []
        try temporary.library.performChangesAndWait {
            for url in urls {
                identifiers.append(PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)!.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        return identifiers
    }

    /// The identifiers `text` finds, in the result's order.
    static func search(_ temporary: TemporaryLibrary, _ text: String) throws -> [String] {
        let result = try temporary.library.withCurrent { try PHAsset.fetchAssets(matching: text, options: nil) }
        return result.objects(at: IndexSet(0..<result.count)).map(\.localIdentifier)
    }

    @Test func wordsAboutAPhotoFindIt() throws {
        let temporary = try TemporaryLibrary()
        let ids = try Self.importFiles(temporary, [
            ("garage.jpg", ["-XMP-dc:Title=Garage receipt", "-XMP-dc:Description=Paid at the front desk", "-XMP-dc:Subject=invoice",
                            "-IPTC:Keywords=Oficina", "-Make=Canon", "-Model=Canon EOS 5D Mark IV"]),
            ("IMG_2041.jpg", ["-XMP-dc:Title=São Paulo skyline", "-Make=FUJIFILM", "-Model=X-T4"]),
            ("IMG_2042.jpg", []),
        ])
        #expect(try Self.search(temporary, "receipt") == [ids[0]], "the title")
        #expect(try Self.search(temporary, "front desk") == [ids[0]], "the caption, every word")
        #expect(try Self.search(temporary, "INVOICE") == [ids[0]], "an XMP keyword, any case")
        #expect(try Self.search(temporary, "oficina") == [ids[0]], "an IPTC keyword")
        #expect(try Self.search(temporary, "canon") == [ids[0]], "the camera's make")
        #expect(try Self.search(temporary, "5d") == [ids[0]], "a word of the model")
        #expect(try Self.search(temporary, "x-t4") == [ids[1]], "a model's words in a row")
        #expect(try Self.search(temporary, "sao paulo") == [ids[1]], "diacritics folded")
        #expect(try Self.search(temporary, "SÃO") == [ids[1]], "on both sides")
        #expect(try Self.search(temporary, "IMG_2041") == [ids[1]], "a file name's words in a row, not the next file's")
        #expect(try Self.search(temporary, "img_2042.jpg") == [ids[2]])
        #expect(try Self.search(temporary, "receipt canon") == [ids[0]], "words from different fields")
        #expect(try Self.search(temporary, "receipt fujifilm").isEmpty, "every word must match")
        #expect(try Self.search(temporary, "recei") == [ids[0]], "the last word as it is typed")
        #expect(try Self.search(temporary, "recei ").isEmpty, "a finished word is a whole word")
        #expect(try Self.search(temporary, "\"paid at the\" desk") == [ids[0]], "a quoted phrase")
        #expect(try Self.search(temporary, "\"at paid\"").isEmpty, "a phrase's words in its order")
    }

    @Test func albumTitlesAreWordsOfTheirMembersWhileTheyAreMembers() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed([SyntheticAsset(), SyntheticAsset()])
        var albumID = ""
        try temporary.library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Lisbon trip")
            request.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil))
            albumID = request.placeholderForCreatedAssetCollection.localIdentifier
        }
        #expect(try Set(Self.search(temporary, "lisbon trip")) == Set(ids))
        let album = try #require(temporary.library.withCurrent { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil).firstObject })
        try temporary.library.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: album)!.removeAssets(PHAsset.fetchAssets(withLocalIdentifiers: [ids[1]], options: nil))
        }
        #expect(try Self.search(temporary, "lisbon") == [ids[0]], "a member that left is no longer found by the title")
        // A search observed while the album is renamed: no member changed, yet its result did.
        let lisbon = try temporary.library.withCurrent { try PHAsset.fetchAssets(matching: "lisbon", options: nil) }
        let porto = try temporary.library.withCurrent { try PHAsset.fetchAssets(matching: "porto", options: nil) }
        let waiter = ChangeWaiter()
        temporary.library.register(waiter)
        defer { temporary.library.unregisterChangeObserver(waiter) }
        try temporary.library.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: album)!.title = "Porto weekend"
        }
        let renamed = try #require(waiter.next())
        let left = try #require(renamed.changeDetails(for: lisbon), "the search for the old title is told")
        #expect(left.removedObjects.map(\.localIdentifier) == [ids[0]] && left.fetchResultAfterChanges.count == 0)
        let joined = try #require(renamed.changeDetails(for: porto), "the search for the new title is told")
        #expect(joined.insertedObjects.map(\.localIdentifier) == [ids[0]])
        #expect(try Self.search(temporary, "lisbon").isEmpty, "the old title is gone")
        #expect(try Self.search(temporary, "porto") == [ids[0]])
        try temporary.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.deleteAssetCollections([album] as NSArray)
        }
        #expect(try Self.search(temporary, "porto").isEmpty, "a deleted album's title is gone")
    }

    /// An album of 1,234 photos: their rows are written many to a statement, every one.
    @Test func aChangeOfManyAssetsIndexesEachOfThem() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed((0..<1234).map { _ in SyntheticAsset() })
        try temporary.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Reunion")
                .addAssets(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil))
        }
        #expect(try Set(Self.search(temporary, "reunion")) == Set(ids))
    }

    @Test func placesOfTheLocationAreWords() throws {
        let temporary = try MomentPlaceNameTests.library()
        var lisbon = SyntheticAsset()
        (lisbon.latitude, lisbon.longitude) = MomentPlaceNameTests.alfama
        var paris = SyntheticAsset()
        (paris.latitude, paris.longitude) = MomentPlaceNameTests.paris
        let ids = try temporary.seed([lisbon, paris, SyntheticAsset()])
        #expect(try Self.search(temporary, "lisbon") == [ids[0]], "the town")
        #expect(try Self.search(temporary, "alfama") == [ids[0]], "the district")
        #expect(try Self.search(temporary, "portugal") == [ids[0]], "the country, in English")
        #expect(try Self.search(temporary, "ile-de-france") == [ids[1]], "the region, folded")
        #expect(try Self.search(temporary, "France") == [ids[1]], "a word of the region and the country")
        // Moved: the words follow the location, in the same change.
        let moved = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[2]], options: nil).firstObject })
        try temporary.library.performChangesAndWait {
            PHAssetChangeRequest(for: moved).location = CLLocation(latitude: MomentPlaceNameTests.sintra.0, longitude: MomentPlaceNameTests.sintra.1)
        }
        #expect(try Self.search(temporary, "sintra") == [ids[2]])
    }

    @Test func timesAndKindsNarrowTheWordsOrStandAlone() throws {
        let temporary = try TemporaryLibrary()
        func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
        var video2019 = SyntheticAsset(mediaType: .video, creationDate: at("2019-06-15T12:00:00Z"))
        video2019.duration = 3
        let photo2019 = SyntheticAsset(creationDate: at("2019-06-20T12:00:00Z"), isFavorite: true)
        let winter2020 = SyntheticAsset(creationDate: at("2020-01-10T12:00:00Z"))
        let tokyo = SyntheticAsset(creationDate: at("2019-12-31T12:30:00Z"))
        let ids = try temporary.seed([video2019, photo2019, winter2020, tokyo])
        #expect(try Self.search(temporary, "2019") == [ids[3], ids[1], ids[0]], "a year, newest first")
        #expect(try Self.search(temporary, "videos from june 2019") == [ids[0]])
        #expect(try Self.search(temporary, "june") == [ids[1], ids[0]])
        #expect(try Self.search(temporary, "winter") == [ids[2], ids[3]], "December and January")
        #expect(try Self.search(temporary, "favorites") == [ids[1]])
        #expect(try Self.search(temporary, "2019-2020 photos").count == 3)
        #expect(try Self.search(temporary, "2018").isEmpty)
    }

    /// A year is the one on the clock where the photo was taken: near New Year, in Tokyo or
    /// Honolulu, the UTC date says the other year. Only dates within 14 hours of a year's end
    /// have their offset read (``PHSearchQuery``'s filter); these are all such dates.
    @Test func aYearIsTheOneWhereThePhotoWasTaken() throws {
        let temporary = try TemporaryLibrary()
        let ids = try Self.importFiles(temporary, [
            // Tokyo, 23:30 on 31 December 2019: 14:30 UTC.
            ("tokyo-eve.jpg", ["-DateTimeOriginal=2019:12:31 23:30:00", "-OffsetTimeOriginal=+09:00"]),
            // Tokyo, 01:00 on 1 January 2020: 16:00 UTC on the 31st.
            ("tokyo-new-year.jpg", ["-DateTimeOriginal=2020:01:01 01:00:00", "-OffsetTimeOriginal=+09:00"]),
            // Honolulu, 20:00 on 31 December 2019: 06:00 UTC on 1 January 2020.
            ("honolulu-eve.jpg", ["-DateTimeOriginal=2019:12:31 20:00:00", "-OffsetTimeOriginal=-10:00"]),
            // Honolulu, 09:00 on 1 January 2019: 19:00 UTC, the same day.
            ("honolulu-2019.jpg", ["-DateTimeOriginal=2019:01:01 09:00:00", "-OffsetTimeOriginal=-10:00"]),
            // Kiritimati (+14:00), 05:00 on 1 January 2019: 15:00 UTC on 31 December 2018.
            ("kiritimati.jpg", ["-DateTimeOriginal=2019:01:01 05:00:00", "-OffsetTimeOriginal=+14:00"]),
        ])
        #expect(Set(try Self.search(temporary, "2019")) == [ids[0], ids[2], ids[3], ids[4]])
        #expect(try Self.search(temporary, "2020") == [ids[1]])
        #expect(try Self.search(temporary, "2018").isEmpty)
        #expect(Set(try Self.search(temporary, "december 2019")) == [ids[0], ids[2]])
    }

    @Test func oddQueriesAnswerAndOnlyTheAbsurdIsRefused() throws {
        let temporary = try TemporaryLibrary()
        let ids = try Self.importFiles(temporary, [("note.jpg", ["-XMP-dc:Subject=whiteboard"])])
        // Each reads as words or as nothing: no engine's query syntax gets through.
        for odd in [
            "\"", "\"\"", "*", "NEAR(whiteboard)", "whiteboard OR x", "whiteboard AND NOT x", "white & board", "(whiteboard",
            "😀", "\u{0}", "a\u{0}b", "a\"b\"c", "whiteboard \" unclosed", "' OR 1=1 --", "x'); DROP TABLE asset; --",
            String(repeating: "ab ", count: 333),
        ] {
            _ = try Self.search(temporary, odd)
        }
        for found in ["whiteboard*", "-whiteboard", "^whiteboard", "'whiteboard'", "whiteboard:*", "😀 whiteboard", "(whiteboard)", "WHITEBOARD!"] {
            #expect(try Self.search(temporary, found) == ids, "\(found.debugDescription)")
        }
        #expect(throws: PHPhotosError.self) { try Self.search(temporary, String(repeating: "a", count: 1001)) }
    }

    @Test func aSearchIsAFetchWhoseObserversGetChangeDetails() throws {
        let temporary = try TemporaryLibrary()
        let first = try Self.importFiles(temporary, [("a.jpg", ["-XMP-dc:Subject=receipt"])])
        let result = try temporary.library.withCurrent { try PHAsset.fetchAssets(matching: "receipt", options: nil) }
        #expect(result.count == 1)
        let waiter = ChangeWaiter()
        temporary.library.register(waiter)
        defer { temporary.library.unregisterChangeObserver(waiter) }
        let second = try Self.importFiles(temporary, [("b.jpg", ["-XMP-dc:Subject=receipt"]), ("c.jpg", ["-XMP-dc:Subject=other"])])
        let change = try #require(waiter.next())
        let details = try #require(change.changeDetails(for: result))
        #expect(details.fetchResultAfterChanges.count == 2)
        #expect(Set(details.insertedObjects.map(\.localIdentifier)) == [second[0]])
        #expect(details.removedObjects.isEmpty && first.count == 1)
    }

    /// A search shows what the library's fetches show, newest first among equal matches, and
    /// follows each change to an asset: its date, hiding, Recently Deleted and back. (On
    /// PostgreSQL the search reads these from its documents' copies, `SearchDocumentCopies`,
    /// which must then equal the assets'.)
    @Test func aSearchShowsWhatTheLibraryShowsAndFollowsItsChanges() throws {
        let temporary = try TemporaryLibrary()
        let ids = try Self.importFiles(temporary, (0..<3).map { year in
            ("\(year).jpg", ["-XMP-dc:Subject=harbour", "-DateTimeOriginal=202\(year):06:01 10:00:00"])
        })
        func asset(_ id: String) -> PHAsset {
            temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject! }
        }
        func copiesAgree() throws {
            guard TestStore.isPostgres else { return }
            let copies = SearchDocumentCopies.columns.map { "searchDocument.\($0.name)" }.joined(separator: ", ")
            let values = SearchDocumentCopies.values(of: "asset").joined(separator: ", ")
            let differing = try temporary.texts(
                """
                SELECT count(*)::text FROM searchDocument JOIN asset ON asset.id = searchDocument.assetID \
                WHERE (\(unescaped: copies)) IS DISTINCT FROM (\(unescaped: values))
                """)
            #expect(differing == ["0"], "each document's copies are its asset's")
        }
        #expect(try Self.search(temporary, "harbour") == [ids[2], ids[1], ids[0]], "equal matches, newest first")
        // Years, kinds and favorites with the words (on PostgreSQL, from the copies too).
        #expect(try Self.search(temporary, "harbour 2021") == [ids[1]], "a year")
        #expect(try Self.search(temporary, "harbour photos june") == [ids[2], ids[1], ids[0]], "a kind and a month")
        #expect(try Self.search(temporary, "harbour videos").isEmpty, "another kind")
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset(ids[1])).isFavorite = true }
        #expect(try Self.search(temporary, "harbour favorites") == [ids[1]], "a favorite")
        try copiesAgree()

        try temporary.library.performChangesAndWait {
            PHAssetChangeRequest(for: asset(ids[0])).creationDate = Date(timeIntervalSince1970: 1_700_000_000)  // 2023
        }
        #expect(try Self.search(temporary, "harbour") == [ids[0], ids[2], ids[1]], "a new date, a new place")
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset(ids[1])).isHidden = true }
        #expect(try Self.search(temporary, "harbour") == [ids[0], ids[2]], "hidden")
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        let withHidden = try temporary.library.withCurrent { try PHAsset.fetchAssets(matching: "harbour", options: options) }
        #expect(withHidden.map(\.localIdentifier) == [ids[0], ids[2], ids[1]], "hidden, asked for")
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset(ids[2])] as NSArray) }
        #expect(try Self.search(temporary, "harbour") == [ids[0]], "in Recently Deleted")
        try copiesAgree()
        try temporary.library.performChangesAndWait {
            PHAssetChangeRequest.recoverAssets(PHAsset.fetchRecentlyDeletedAssets(with: nil))
            PHAssetChangeRequest(for: asset(ids[1])).isHidden = false
        }
        #expect(try Self.search(temporary, "harbour") == [ids[0], ids[2], ids[1]], "back")
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset(ids[0])).creationDate = nil }
        #expect(try Self.search(temporary, "harbour") == [ids[2], ids[1], ids[0]], "no date, last")
        try copiesAgree()
    }

    @Test func assetsWithoutWordsAreIndexedWhenTheLibraryOpens() throws {
        let temporary = try TemporaryLibrary()
        let ids = try Self.importFiles(temporary, [("beach.jpg", ["-XMP-dc:Subject=beach"])])
        // As a library from before the index (v23) has them: no rows.
        try temporary.execute("DELETE FROM searchDocument")
        try temporary.execute("DELETE FROM libraryInfo WHERE key = 'searchIndexed'")
        #expect(try Self.search(temporary, "beach").isEmpty)
        let store = try temporary.openStoreAgain(gazetteer: .custom(nil))
        withExtendedLifetime(store) {}
        #expect(try Self.search(temporary, "beach") == ids)
        // Once all have words, opening looks no further: a row lost now stays lost until a
        // change to its asset (or the key's removal).
        try temporary.execute("DELETE FROM searchDocument")
        withExtendedLifetime(try temporary.openStoreAgain(gazetteer: .custom(nil))) {}
        #expect(try Self.search(temporary, "beach").isEmpty)
    }
}
