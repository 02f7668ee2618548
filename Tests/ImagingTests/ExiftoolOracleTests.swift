import Foundation
import PhotosTestSupport
import Testing

@testable import Imaging

/// Our capture date, time zone, GPS position and orientation against exiftool's reading of
/// the same files, over the real-photo corpus (`scripts/fetch-corpus.sh .corpus --minimal`,
/// run by `make fixtures`). Every disagreement is listed in
/// `.build/test-artifacts/metadata-oracle.txt`; the aim is none.
@Suite("Metadata against exiftool")
struct ExiftoolOracleTests {
    static let corpus: URL = {
        if let path = ProcessInfo.processInfo.environment["PHOTOKIT_CORPUS"] { return URL(fileURLWithPath: path) }
        return Fixtures.packageRoot.appendingPathComponent(".corpus", isDirectory: true)
    }()

    /// exiftool's tags for each file, keyed "Group:Tag" (`-json -n -G1`).
    static func exiftool(_ files: [URL]) throws -> [String: [String: Any]] {
        let data = try ExternalTool.output(
            "/usr/bin/exiftool",
            ["-json", "-n", "-G1", "-a", "-q", "-q", "-FileType", "-time:all", "-gps:all", "-Orientation", "-Composite:GPSDateTime",
             "-Composite:GPSLatitude", "-Composite:GPSLongitude", "-Composite:GPSAltitude"] + files.map(\.path))
        let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return Dictionary(entries.map { ($0["SourceFile"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func text(_ value: Any?) -> String? {
        switch value {
        case let string as String: string
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }

    static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: number.doubleValue
        case let string as String: Double(string)
        default: nil
        }
    }

    /// The capture time the file states, by the library's rule, as exiftool reads it: the
    /// wall-clock text, the offset written with it, and sub-seconds.
    static func expectedDate(_ tags: [String: Any]) -> (wall: String, offset: String?, subSeconds: TimeInterval)? {
        /// The first 19 characters as "YYYY:MM:DD HH:MM:SS" (XMP's "YYYY-MM-DDTHH:MM:SS" too),
        /// and what follows them (an offset, sub-seconds, or an odd suffix).
        func valid(_ key: String) -> (wall: String, rest: String)? {
            guard let value = text(tags[key]), ExifDate.LocalDateTime(exif: value) != nil else { return nil }
            var characters = Array(value.prefix(19))
            characters[4] = ":"
            characters[7] = ":"
            characters[10] = " "
            return (String(characters), String(value.dropFirst(19)))
        }
        func sub(_ key: String) -> TimeInterval { text(tags[key]).flatMap(ExifDate.subSeconds) ?? 0 }
        let generalOffset = text(tags["ExifIFD:OffsetTime"])
        if let value = valid("ExifIFD:DateTimeOriginal") {
            return (value.wall, text(tags["ExifIFD:OffsetTimeOriginal"]) ?? generalOffset, sub("ExifIFD:SubSecTimeOriginal"))
        }
        if let value = valid("ExifIFD:CreateDate") {
            return (value.wall, text(tags["ExifIFD:OffsetTimeDigitized"]) ?? generalOffset, sub("ExifIFD:SubSecTimeDigitized"))
        }
        if let value = valid("IFD0:ModifyDate") { return (value.wall, generalOffset, sub("ExifIFD:SubSecTime")) }
        for key in ["XMP-exif:DateTimeOriginal", "XMP-photoshop:DateCreated", "XMP-xmp:CreateDate"] {
            if let value = valid(key) { return (value.wall, value.rest.isEmpty ? nil : value.rest, 0) }
        }
        if let value = valid("Composite:GPSDateTime") { return (value.wall, "Z", 0) }
        for key in ["Keys:CreationDate", "UserData:DateTimeOriginal", "QuickTime:CreateDate", "PNG:ModifyDate"] {
            if let value = valid(key), !value.wall.hasPrefix("0000") { return (value.wall, value.rest.isEmpty ? "Z" : value.rest, 0) }
        }
        return nil
    }

    /// Our reading: the probe, or for files it refuses (EXIF-only truncated fixtures) the EXIF
    /// block parsed alone.
    static func ours(_ url: URL) -> (metadata: MediaMetadata?, exif: ExifMetadata?, note: String?) {
        do {
            return (try MediaProbe.probe(fileAt: url, defaultTimeZone: .gmt), nil, nil)
        } catch {
            let bytes = (try? [UInt8](Data(contentsOf: url))) ?? []
            let starts = [Array("Exif\0\0".utf8), [0x4D, 0x4D, 0, 0x2A], [0x49, 0x49, 0x2A, 0]].compactMap { find($0, in: bytes) }
            guard let tiff = starts.lazy.compactMap({ TIFFParser.exifBlob(Array(bytes[$0...])) }).first(where: { !$0.ifd0.entries.isEmpty })
            else { return (nil, nil, "probe refused it (\(error.code.rawValue)), no EXIF block") }
            return (nil, ExifMetadata(tiff, defaultTimeZone: .gmt), "probe refused it (\(error.code.rawValue)); EXIF block read alone")
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<index + needle.count]) == needle { return index }
        }
        return nil
    }

    /// "YYYY:MM:DD HH:MM:SS" of `date` shifted by `offset` seconds.
    static func wallClock(_ date: Date, offset: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: offset)
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        return formatter.string(from: date)
    }

    @Test func captureDateGPSAndOrientationAgreeWithExiftool() throws {
        let manager = FileManager.default
        guard manager.fileExists(atPath: Self.corpus.path) else {
            Issue.record("no corpus at \(Self.corpus.path): run `make fixtures` (scripts/fetch-corpus.sh .corpus --minimal)")
            return
        }
        var files: [URL] = []
        for folder in [Self.corpus, Self.corpus.appendingPathComponent("_fixtures")] {
            for name in try manager.contentsOfDirectory(atPath: folder.path).sorted() where !name.hasSuffix(".tsv") {
                let url = folder.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                if manager.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue { files.append(url) }
            }
        }
        #expect(files.count > 150, "the corpus looks incomplete: \(files.count) files")
        let oracle = try Self.exiftool(files)

        var disagreements: [String] = []
        var notes: [String] = []
        var compared = (dates: 0, gps: 0, orientation: 0)
        for url in files {
            guard let truth = oracle[url.path] else { continue }
            let name = url.lastPathComponent
            let (metadata, exif, note) = Self.ours(url)
            if let note { notes.append("\(name): \(note)") }
            // Nothing read (a format libvips can't open, with no EXIF block): nothing to compare.
            if metadata == nil && exif == nil { continue }
            let isVideo = metadata?.isVideo ?? false
            let captureDate = metadata?.captureDate ?? exif?.captureDate
            let offset = metadata?.captureTimeZoneOffset ?? exif?.captureTimeZoneOffset
            let location = metadata?.location ?? exif?.location

            // Capture date: the wall-clock time written in the file, and its offset when written.
            if let expected = Self.expectedDate(truth) {
                compared.dates += 1
                let writtenOffset = expected.offset.flatMap(ExifDate.offsetSeconds)
                let ours = captureDate.map { Self.wallClock($0.addingTimeInterval(-expected.subSeconds), offset: offset ?? writtenOffset ?? 0) }
                if ours != expected.wall {
                    disagreements.append("\(name): date \(ours ?? "none"), exiftool \(expected.wall)\(expected.offset ?? "")")
                }
                if let writtenOffset, expected.offset != "Z", offset != writtenOffset {
                    disagreements.append("\(name): offset \(offset.map(String.init) ?? "none"), exiftool \(expected.offset ?? "")")
                }
            }

            // GPS: position to 1e-5 degree (about a metre), altitude to a centimetre.
            if let latitude = Self.number(truth["Composite:GPSLatitude"] ?? truth["GPS:GPSLatitude"]),
                let longitude = Self.number(truth["Composite:GPSLongitude"] ?? truth["GPS:GPSLongitude"]), latitude != 0 || longitude != 0
            {
                compared.gps += 1
                if let location {
                    if abs(location.latitude - latitude) > 1e-5 || abs(location.longitude - longitude) > 1e-5 {
                        disagreements.append("\(name): GPS \(location.latitude),\(location.longitude), exiftool \(latitude),\(longitude)")
                    }
                    if let altitude = Self.number(truth["Composite:GPSAltitude"] ?? truth["GPS:GPSAltitude"]), let ours = location.altitude, abs(ours - altitude) > 0.01 {
                        disagreements.append("\(name): altitude \(ours), exiftool \(altitude)")
                    }
                } else {
                    disagreements.append("\(name): no GPS, exiftool \(latitude),\(longitude)")
                }
            }

            // Orientation of stills (HEIF applies its own rotation; video has none in EXIF).
            if let written = Self.number(truth["IFD0:Orientation"]).map(Int.init), (1...8).contains(written), !isVideo,
                !["HEIC", "HEIF", "AVIF"].contains(Self.text(truth["File:FileType"]) ?? "")
            {
                compared.orientation += 1
                let ours = metadata?.orientation ?? exif?.orientation ?? 1
                if ours != written { disagreements.append("\(name): orientation \(ours), exiftool \(written)") }
            }
        }

        let artifacts = Fixtures.packageRoot.appendingPathComponent(".build/test-artifacts", isDirectory: true)
        try? manager.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let report = [
            "\(files.count) files; compared \(compared.dates) dates, \(compared.gps) positions, \(compared.orientation) orientations",
            "\(disagreements.count) disagreements:",
        ] + disagreements + ["", "notes:"] + notes
        try? report.joined(separator: "\n").write(to: artifacts.appendingPathComponent("metadata-oracle.txt"), atomically: true, encoding: .utf8)
        #expect(compared.dates > 60 && compared.gps > 8 && compared.orientation > 10, "\(compared)")
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements:\n\(disagreements.joined(separator: "\n"))")
    }
}
