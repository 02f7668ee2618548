import Foundation
import PhotosLocking
import Testing

@testable import CoreLocation

/// `CLGeocoder` over the offline gazetteer: reverse and forward geocoding, Apple's errors,
/// cancellation, and the real GeoNames file when the machine has it.
@Suite("CLGeocoder")
struct CLGeocoderTests {
    static func sampleGeocoder() throws -> CLGeocoder {
        CLGeocoder(gazetteer: .custom(try Gazetteer(contentsOf: GazetteerTests.write(GazetteerTests.sample))))
    }

    /// The handler's answer, waiting for it.
    static func answer(_ start: (@escaping CLGeocodeCompletionHandler) -> Void) -> (placemarks: [CLPlacemark]?, error: (any Error)?) {
        let result = Mutex<([CLPlacemark]?, (any Error)?)?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { placemarks, error in
            result.withLock { $0 = (placemarks, error) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success, "the handler was never called")
        return result.withLock { $0 } ?? (nil, nil)
    }

    @Test func aCoordinateGetsItsTownDistrictRegionAndCountry() throws {
        let geocoder = try Self.sampleGeocoder()
        let location = CLLocation(latitude: 38.7115, longitude: -9.1280)  // by Alfama's centre
        let (placemarks, error) = Self.answer { geocoder.reverseGeocodeLocation(location, preferredLocale: Locale(identifier: "en_GB"), completionHandler: $0) }
        #expect(error == nil)
        let placemark = try #require(placemarks?.first)
        #expect(placemarks?.count == 1)
        #expect(placemark.locality == "Lisbon")
        #expect(placemark.subLocality == "Alfama")
        #expect(placemark.name == "Alfama")
        #expect(placemark.administrativeArea == "Lisbon")
        #expect(placemark.isoCountryCode == "PT")
        #expect(placemark.country == "Portugal")
        #expect(placemark.location?.coordinate == location.coordinate)
        #expect(placemark.thoroughfare == nil && placemark.postalCode == nil)

        let paris = Self.answer {
            geocoder.reverseGeocodeLocation(CLLocation(latitude: 48.86, longitude: 2.35), preferredLocale: Locale(identifier: "de_DE"), completionHandler: $0)
        }
        #expect(paris.placemarks?.first?.locality == "Paris")
        #expect(paris.placemarks?.first?.country == "Frankreich")
        #expect(paris.placemarks?.first?.subLocality == nil)
        #expect(CLPlacemark(placemark: placemark).subLocality == "Alfama")
    }

    @Test func theAsyncFormsAnswerAndThrowApplesErrors() async throws {
        let geocoder = try Self.sampleGeocoder()
        let placemarks = try await geocoder.reverseGeocodeLocation(CLLocation(latitude: 38.80, longitude: -9.38))
        #expect(placemarks.first?.locality == "Sintra")
        do {
            _ = try await geocoder.reverseGeocodeLocation(CLLocation(latitude: 30, longitude: -40))  // mid-Atlantic
            Issue.record("the ocean has no town")
        } catch CLError.geocodeFoundNoResult {
        }
        await #expect(throws: CLError(.geocodeFoundNoResult, "No town or city within 30 km of 91.0, 0.0")) {
            try await geocoder.reverseGeocodeLocation(CLLocation(latitude: 91, longitude: 0))
        }
        let bridged = CLError(.geocodeCanceled, "x") as NSError
        #expect(bridged.domain == "kCLErrorDomain" && bridged.code == 10)
        #expect(CLError.Code.allCases.map(\.rawValue) == Array(0...19))
    }

    @Test func namesFindTheirTowns() async throws {
        let geocoder = try Self.sampleGeocoder()
        let lisbon = try #require(try await geocoder.geocodeAddressString("lisbon").first)
        #expect(lisbon.locality == "Lisbon" && lisbon.isoCountryCode == "PT")
        #expect(abs((lisbon.location?.coordinate.latitude ?? 0) - 38.71667) < 1e-6)
        #expect(try await geocoder.geocodeAddressString("Paris, FR").first?.locality == "Paris")
        #expect(try await geocoder.geocodeAddressString("Sintra, Lisbon").first?.locality == "Sintra")
        await #expect(throws: CLError.self) { try await geocoder.geocodeAddressString("Paris, DE") }
        await #expect(throws: CLError.self) { try await geocoder.geocodeAddressString(" , ") }

        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 48.85, longitude: 2.35), radius: 10_000, identifier: "paris")
        #expect(region.contains(CLLocationCoordinate2D(latitude: 48.86, longitude: 2.34)))
        #expect(!region.contains(CLLocationCoordinate2D(latitude: 38.7, longitude: -9.1)))
        let inRegion = Self.answer { geocoder.geocodeAddressString("Paris", in: region, preferredLocale: nil, completionHandler: $0) }
        #expect(inRegion.placemarks?.first?.locality == "Paris")
    }

    @Test func withoutAGazetteerEveryRequestIsANetworkError() {
        let geocoder = CLGeocoder(gazetteer: .custom(nil))
        let (placemarks, error) = Self.answer { geocoder.reverseGeocodeLocation(CLLocation(latitude: 38.7, longitude: -9.1), completionHandler: $0) }
        #expect(placemarks == nil)
        #expect((error as? CLError)?.code == .network)
    }

    @Test func cancellingAnswersTheRunningRequestsAsCancelled() throws {
        let gazetteer = try Gazetteer(contentsOf: GazetteerTests.write(GazetteerTests.sample))
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let geocoder = CLGeocoder(loading: {
            started.signal()
            proceed.wait()
            return gazetteer
        })
        let result = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        geocoder.reverseGeocodeLocation(CLLocation(latitude: 38.7, longitude: -9.1)) { _, error in
            result.withLock { $0 = error }
            done.signal()
        }
        started.wait()
        #expect(geocoder.isGeocoding)
        geocoder.cancelGeocode()
        proceed.signal()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect((result.withLock { $0 } as? CLError)?.code == .geocodeCanceled)
        #expect(!geocoder.isGeocoding)

        // A request started after the cancel runs.
        proceed.signal()
        let after = Self.answer { geocoder.reverseGeocodeLocation(CLLocation(latitude: 38.7, longitude: -9.1), completionHandler: $0) }
        #expect(after.placemarks?.first?.locality == "Lisbon")
    }

    /// The machine's GeoNames file (`scripts/fetch-gazetteer.sh`, run by `make deps`).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: Gazetteer.defaultURL().path)))
    func theMachinesGazetteer() async throws {
        let geocoder = CLGeocoder()
        let tokyo = try #require(try await geocoder.reverseGeocodeLocation(CLLocation(latitude: 35.6762, longitude: 139.6503), preferredLocale: Locale(identifier: "fr_FR")).first)
        #expect(tokyo.locality == "Tokyo" && tokyo.isoCountryCode == "JP" && tokyo.country == "Japon")
        let porto = try #require(try await geocoder.geocodeAddressString("Porto, PT").first)
        #expect(porto.isoCountryCode == "PT")
        #expect((porto.location?.coordinate.latitude ?? 0) > 41 && (porto.location?.coordinate.latitude ?? 0) < 41.3)
    }
}
