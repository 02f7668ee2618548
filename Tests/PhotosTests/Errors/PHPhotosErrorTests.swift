import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

@Suite("PHPhotosError")
struct PHPhotosErrorTests {
    @Test func bridgesToNSErrorWithApplesDomainAndCodes() {
        let error = PHPhotosError(.invalidResource, "Can't add /tmp/x.jpg: truncated", localIdentifiers: ["A/L0/001"])
        let bridged = error as NSError
        #expect(bridged.domain == "PHPhotosErrorDomain")
        #expect(bridged.domain == PHPhotosErrorDomain)
        #expect(bridged.code == 3302)
        #expect(bridged.localizedDescription == "Can't add /tmp/x.jpg: truncated")
        #expect(bridged.userInfo[PHLocalIdentifiersErrorKey] as? [String] == ["A/L0/001"])
        #expect(error.localizedDescription == "Can't add /tmp/x.jpg: truncated")
    }

    @Test func numberingIsApples() {
        let expected: [PHPhotosError.Code: Int] = [
            .internalError: -1, .userCancelled: 3072, .libraryVolumeOffline: 3114, .relinquishingLibraryBundleToWriter: 3142,
            .switchingSystemPhotoLibrary: 3143, .networkAccessRequired: 3164, .networkError: 3169, .identifierNotFound: 3201,
            .multipleIdentifiersFound: 3202, .changeNotSupported: 3300, .operationInterrupted: 3301, .invalidResource: 3302,
            .missingResource: 3303, .notEnoughSpace: 3305, .requestNotSupportedForAsset: 3306, .accessRestricted: 3310,
            .accessUserDenied: 3311, .libraryInFileProviderSyncRoot: 5423, .persistentChangeTokenExpired: 3105,
            .persistentChangeDetailsUnavailable: 3210,
        ]
        #expect(expected.count == PHPhotosError.Code.allCases.count)
        for (code, raw) in expected { #expect(code.rawValue == raw, "\(code)") }
        #expect(PHPhotosError.invalidResource == .invalidResource)
    }

    @Test func catchingByCode() throws {
        let temporary = try TemporaryLibrary()
        do {
            try temporary.library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: URL(string: "https://example.com/a.jpg")!)
            }
            Issue.record("a remote URL must fail")
        } catch let error as PHPhotosError where error.code == .invalidResource {
            #expect(error.message.contains("https://example.com/a.jpg"))
            #expect(error.message.contains("not a file URL"))
        }
    }
}
