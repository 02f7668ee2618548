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

@Suite("PHPhotosError: Apple's overlay members")
struct PHPhotosErrorOverlayTests {
    @Test func madeFromUserInfoAsApplesOverlayMakesIt() {
        let error = PHPhotosError(
            .identifierNotFound,
            userInfo: [NSLocalizedDescriptionKey: "No asset A/L0/001", PHLocalIdentifiersErrorKey: ["A/L0/001"], "attempt": 2])
        #expect(error.code == .identifierNotFound)
        #expect(error.localizedDescription == "No asset A/L0/001")
        #expect(error.localIdentifiers == ["A/L0/001"])
        #expect(error.userInfo["attempt"] as? Int == 2)
        let bridged = error as NSError
        #expect(bridged.code == 3201 && bridged.userInfo["attempt"] as? Int == 2)
        #expect(bridged.userInfo[PHLocalIdentifiersErrorKey] as? [String] == ["A/L0/001"])

        let bare = PHPhotosError(.networkAccessRequired)
        #expect(bare.userInfo.count == 1)
        #expect(bare.localizedDescription.contains("3164"))
        #expect(bare == PHPhotosError(.networkAccessRequired, userInfo: [:]))
        #expect(bare != PHPhotosError(.networkError))
    }

    @Test func everyCodeHasItsShortcut() {
        let shortcuts: [PHPhotosError.Code] = [
            PHPhotosError.internalError, PHPhotosError.userCancelled, PHPhotosError.libraryVolumeOffline,
            PHPhotosError.relinquishingLibraryBundleToWriter, PHPhotosError.switchingSystemPhotoLibrary,
            PHPhotosError.networkAccessRequired, PHPhotosError.networkError, PHPhotosError.identifierNotFound,
            PHPhotosError.multipleIdentifiersFound, PHPhotosError.changeNotSupported, PHPhotosError.operationInterrupted,
            PHPhotosError.invalidResource, PHPhotosError.missingResource, PHPhotosError.notEnoughSpace,
            PHPhotosError.requestNotSupportedForAsset, PHPhotosError.accessRestricted, PHPhotosError.accessUserDenied,
            PHPhotosError.libraryInFileProviderSyncRoot, PHPhotosError.persistentChangeTokenExpired,
            PHPhotosError.persistentChangeDetailsUnavailable,
        ]
        #expect(Set(shortcuts) == Set(PHPhotosError.Code.allCases))
    }

    @Test func aCodeCatchesItsErrorsBridgedOrNot() {
        func thrown(_ error: any Error) -> String {
            do {
                throw error
            } catch PHPhotosError.networkAccessRequired {
                return "network"
            } catch PHPhotosError.invalidResource {
                return "invalid"
            } catch {
                return "other"
            }
        }
        #expect(thrown(PHPhotosError(.networkAccessRequired, "remote")) == "network")
        #expect(thrown(PHPhotosError(.invalidResource)) == "invalid")
        #expect(thrown(NSError(domain: PHPhotosErrorDomain, code: 3164)) == "network")
        #expect(thrown(NSError(domain: "OtherDomain", code: 3164)) == "other")
        #expect(thrown(PHPhotosError(.missingResource)) == "other")
    }
}
