import Foundation
import Photos
import PhotosTestSupport
import Testing

/// The title, caption and keywords a file carries are kept at import and read back through
/// `PHAsset.descriptiveInfo` (issue 37), on either engine.
@Suite("Descriptive info of assets")
struct DescriptiveInfoTests {
    @Test func keywordsCaptionAndTitleWrittenByExiftoolAreKeptAtImport() throws {
        let temporary = try TemporaryLibrary()
        let tagged = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("garage.jpg"), width: 64, height: 48)
        _ = try ExternalTool.exiftool([
            "-q", "-overwrite_original", "-codedcharacterset=utf8", "-XMP-dc:Title=Garage receipt",
            "-XMP-dc:Description=Paid in full\nat the desk", "-XMP-dc:Subject=receipt", "-XMP-dc:Subject=car",
            "-XMP-lr:HierarchicalSubject=Places|Portugal|Lisbon", "-IPTC:Keywords=Straße", tagged.path,
        ])
        let plain = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("plain.jpg"), width: 64, height: 48)
        var identifiers: [String] = []
        try temporary.library.performChangesAndWait {
            for file in [tagged, plain] {
                identifiers.append(PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file)!.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        let assets = temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: nil) }
        let found = try #require(assets.objects(at: IndexSet(0..<assets.count)).first { $0.localIdentifier == identifiers[0] })
        let info = try #require(found.descriptiveInfo)
        #expect(info.title == "Garage receipt")
        #expect(info.caption == "Paid in full\nat the desk")
        #expect(info.keywords == ["receipt", "car", "Straße", "Places", "Portugal", "Lisbon"])
        let other = try #require(assets.objects(at: IndexSet(0..<assets.count)).first { $0.localIdentifier == identifiers[1] })
        #expect(other.descriptiveInfo == nil)
    }
}
