package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a coordinate is, in words: the town or city, and the part of it when the gazetteer
/// knows one ("Lisbon", district "Alfama").
package struct Place: Sendable, Hashable {
    /// The town or city.
    package var name: String
    /// The section of the city (a GeoNames `PPLX`, or a smaller place inside a large city's
    /// municipality), when the coordinate is close to one.
    package var district: String?
    /// The first-level region (state, province, region), when known.
    package var admin1: String?
    /// ISO 3166-1 alpha-2, or empty when the gazetteer has none.
    package var countryCode: String

    package init(name: String, district: String? = nil, admin1: String? = nil, countryCode: String) {
        self.name = name
        self.district = district
        self.admin1 = admin1
        self.countryCode = countryCode
    }
}

/// An offline list of populated places (GeoNames-derived; see `scripts/fetch-gazetteer.sh`)
/// that answers "which town is this coordinate in" without a network.
///
/// The file is a UTF-8 TSV. Lines starting with `#` are comments; every other line is
/// `name, latitude, longitude, countryCode, admin1, admin2Code, featureCode, population`
/// separated by tabs, of which only the first three are required. Lines that don't parse are
/// skipped. Loading parses the bytes in one pass and keeps strings as byte ranges, decoded only
/// for the places a lookup returns; places are kept sorted by 0.1° latitude band and then
/// longitude (the fetch script writes them in that order, other files are sorted on load), so
/// a lookup reads a few bands and binary-searches the longitude window in each.
///
/// Immutable once loaded, so one instance is shared by every thread.
package final class Gazetteer: Sendable {
    /// How far a coordinate may be from a town for the town to name it.
    package static let cityRadius: Double = 30_000
    /// How far a coordinate may be from a district (at most; smaller districts reach less).
    package static let districtRadius: Double = 3_000
    static let minimumDistrictRadius: Double = 1_000
    /// A town of at least this many people absorbs smaller places of its own municipality as
    /// districts ("Lisbon - Benfica").
    static let majorCityPopulation: Int32 = 100_000
    static let bandsPerDegree = 10
    static let bandCount = 180 * bandsPerDegree

    enum Kind: UInt8, Sendable {
        /// A town, city or village.
        case place
        /// A section of a populated place (GeoNames `PPLX`).
        case section
    }

    /// A run of bytes in ``bytes``.
    struct Text: Sendable, Hashable {
        var start: UInt32 = 0
        var count: UInt32 = 0
    }

    struct Entry: Sendable {
        var latitude: Double
        var longitude: Double
        var population: Int32
        var band: Int16
        var kind: Kind
        var country: UInt16
        var name: Text
        var admin1: Text
        var admin2: Text
    }

    /// The file's bytes; entries point into them.
    private let bytes: [UInt8]
    /// Sorted by band, then longitude.
    let entries: [Entry]
    /// `entries[bandStarts[b]..<bandStarts[b + 1]]` is band `b`.
    private let bandStarts: [Int32]

    /// The number of places loaded.
    package var count: Int { entries.count }

    /// Loads a gazetteer file; throws when it can't be read (a file without any valid line
    /// loads as an empty gazetteer).
    package convenience init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url, options: .mappedIfSafe)
        self.init(bytes: [UInt8](data))
    }

    /// Parses gazetteer text (see the type's documentation for the format).
    package init(bytes: [UInt8]) {
        var entries = Self.parse(bytes)
        var sorted = true
        for index in entries.indices.dropFirst() {
            let a = entries[index - 1], b = entries[index]
            if a.band > b.band || (a.band == b.band && a.longitude > b.longitude) {
                sorted = false
                break
            }
        }
        if !sorted {
            entries.sort { $0.band != $1.band ? $0.band < $1.band : $0.longitude < $1.longitude }
        }
        var starts = [Int32](repeating: 0, count: Self.bandCount + 1)
        var index = 0
        for band in 0...Self.bandCount {
            while index < entries.count && Int(entries[index].band) < band { index += 1 }
            starts[band] = Int32(index)
        }
        self.bytes = bytes
        self.entries = entries
        self.bandStarts = starts
    }

    // MARK: Lookup

    /// The place a coordinate is in, or `nil` when no town is within ``cityRadius``.
    ///
    /// Among the towns within reach the one whose size best explains the distance wins: each
    /// town reaches `15 m × √population` (2 km at least, 30 km at most), and the coordinate
    /// goes to the town it is relatively closest to, so a point 3 km from the centre of Lisbon
    /// is "Lisbon" even when a village is 1 km away. A smaller place that shares a large
    /// city's municipality becomes that city's district; otherwise the nearest city section
    /// (`PPLX`) within its reach (1 to 3 km) names the district.
    package func nearestPlace(latitude: Double, longitude: Double) -> Place? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        let nearby = candidates(latitude: latitude, longitude: longitude, radius: Self.cityRadius)
        guard !nearby.isEmpty else { return nil }

        var best: (index: Int, score: Double)?
        for (index, distance) in nearby where entries[index].kind == .place {
            let score = distance / Self.reach(entries[index].population)
            if best == nil || score < best!.score
                || (score == best!.score && entries[index].population > entries[best!.index].population)
            {
                best = (index, score)
            }
        }
        var district: Int?
        var city: Int
        if let best {
            city = best.index
            // A smaller place inside a large city's municipality is one of its districts.
            var major: (index: Int, score: Double)?
            for (index, distance) in nearby where index != city && isMajorCity(index, over: city) {
                let score = distance / Self.reach(entries[index].population)
                if score <= 1, major == nil || score < major!.score { major = (index, score) }
            }
            if let major {
                district = city
                city = major.index
            }
        } else {
            // Only city sections nearby (rare): the closest names the place.
            guard let closest = nearby.min(by: { $0.distance < $1.distance }) else { return nil }
            city = closest.index
        }
        if district == nil {
            var bestSection: (index: Int, score: Double)?
            for (index, distance) in nearby where index != city && entries[index].kind == .section {
                let entry = entries[index]
                guard entry.country == entries[city].country else { continue }
                let reach = Self.districtReach(entry.population)
                guard distance <= reach else { continue }
                let score = distance / reach
                if bestSection == nil || score < bestSection!.score { bestSection = (index, score) }
            }
            district = bestSection?.index
        }
        let cityEntry = entries[city]
        let name = string(cityEntry.name)
        var districtName = district.map { string(entries[$0].name) }
        if districtName == name { districtName = nil }
        let admin1 = string(cityEntry.admin1)
        return Place(
            name: name, district: districtName, admin1: admin1.isEmpty ? nil : admin1,
            countryCode: Self.countryString(cityEntry.country))
    }

    /// How far a place of this population reaches, in metres.
    static func reach(_ population: Int32) -> Double {
        min(cityRadius, max(2_000, 15 * Double(max(population, 0)).squareRoot()))
    }

    /// How far a city section of this population reaches, in metres.
    static func districtReach(_ population: Int32) -> Double {
        min(districtRadius, max(minimumDistrictRadius, 15 * Double(max(population, 0)).squareRoot()))
    }

    /// Whether `major` is a large city whose municipality contains the smaller `place`.
    private func isMajorCity(_ major: Int, over place: Int) -> Bool {
        let big = entries[major], small = entries[place]
        return big.kind == .place && big.population >= Self.majorCityPopulation
            && Int64(big.population) >= 5 * Int64(small.population)
            && big.country == small.country && big.admin2.count > 0
            && equal(big.admin1, small.admin1) && equal(big.admin2, small.admin2)
    }

    /// Entries within `radius` metres, with their distances.
    private func candidates(latitude: Double, longitude: Double, radius: Double) -> [(index: Int, distance: Double)] {
        let degreesLatitude = radius / 111_195
        let lowBand = Self.band(latitude - degreesLatitude)
        let highBand = Self.band(latitude + degreesLatitude)
        let farthestLatitude = min(89.9, max(abs(latitude - degreesLatitude), abs(latitude + degreesLatitude)))
        let degreesLongitude = radius / (111_195 * cos(farthestLatitude * .pi / 180))
        var windows: [ClosedRange<Double>] = []
        if degreesLongitude >= 180 {
            windows = [-180...180]
        } else {
            let low = longitude - degreesLongitude, high = longitude + degreesLongitude
            if low < -180 {
                windows = [(low + 360)...180, -180...high]
            } else if high > 180 {
                windows = [low...180, -180...(high - 360)]
            } else {
                windows = [low...high]
            }
        }
        var found: [(index: Int, distance: Double)] = []
        entries.withUnsafeBufferPointer { entries in
            for band in lowBand...highBand {
                let start = Int(bandStarts[band]), end = Int(bandStarts[band + 1])
                guard start < end else { continue }
                for window in windows {
                    // First entry of the band at or east of the window's west edge.
                    var low = start, high = end
                    while low < high {
                        let middle = (low + high) / 2
                        if entries[middle].longitude < window.lowerBound { low = middle + 1 } else { high = middle }
                    }
                    var index = low
                    while index < end && entries[index].longitude <= window.upperBound {
                        let distance = Geo.distance(latitude, longitude, entries[index].latitude, entries[index].longitude)
                        if distance <= radius { found.append((index, distance)) }
                        index += 1
                    }
                }
            }
        }
        return found
    }

    static func band(_ latitude: Double) -> Int {
        min(bandCount - 1, max(0, Int(((latitude + 90) * Double(bandsPerDegree)).rounded(.down))))
    }

    // MARK: Strings

    func string(_ text: Text) -> String {
        guard text.count > 0 else { return "" }
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(text.start)..<Int(text.start + text.count)]), as: UTF8.self)
        }
    }

    private func equal(_ a: Text, _ b: Text) -> Bool {
        guard a.count == b.count else { return false }
        if a.start == b.start { return true }
        return bytes.withUnsafeBufferPointer { buffer in
            for offset in 0..<Int(a.count) where buffer[Int(a.start) + offset] != buffer[Int(b.start) + offset] {
                return false
            }
            return true
        }
    }

    static func countryString(_ code: UInt16) -> String {
        guard code != 0 else { return "" }
        return String(decoding: [UInt8(code >> 8), UInt8(code & 0xFF)], as: UTF8.self)
    }

    // MARK: Parsing

    private static let tab = UInt8(ascii: "\t")
    private static let newline = UInt8(ascii: "\n")

    /// Every valid line's entry, in file order.
    private static func parse(_ bytes: [UInt8]) -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(bytes.count / 56)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let total = buffer.count
            var lineStart = 0
            while lineStart < total {
                var lineEnd = total
                if let found = memchr(base + lineStart, Int32(newline), total - lineStart) {
                    lineEnd = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                }
                var contentEnd = lineEnd
                if contentEnd > lineStart && base[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
                if contentEnd > lineStart && base[lineStart] != UInt8(ascii: "#"),
                    let entry = parseLine(base, from: lineStart, to: contentEnd)
                {
                    entries.append(entry)
                }
                lineStart = lineEnd + 1
            }
        }
        return entries
    }

    /// One line's entry, or `nil` when its name, latitude or longitude is missing or invalid.
    private static func parseLine(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Entry? {
        withUnsafeTemporaryAllocation(of: Text.self, capacity: 8) { fields in
            fields.initialize(repeating: Text())
            var fieldStart = start
            var count = 0
            while count < 8 && fieldStart <= end {
                var fieldEnd = end
                if fieldStart < end, let found = memchr(base + fieldStart, Int32(tab), end - fieldStart) {
                    fieldEnd = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                }
                fields[count] = Text(start: UInt32(fieldStart), count: UInt32(fieldEnd - fieldStart))
                count += 1
                fieldStart = fieldEnd + 1
            }
            guard count >= 3, fields[0].count > 0,
                let latitude = decimal(base, fields[1]), let longitude = decimal(base, fields[2]),
                abs(latitude) <= 90, abs(longitude) <= 180
            else { return nil }
            let country = fields[3].count == 2 ? UInt16(base[Int(fields[3].start)]) << 8 | UInt16(base[Int(fields[3].start) + 1]) : 0
            let code = fields[6]
            let isSection = code.count == 4 && memcmp(base + Int(code.start), sectionCode, 4) == 0
            var population: Int32 = 0
            if let value = decimal(base, fields[7]), value >= 0 { population = Int32(min(value, Double(Int32.max))) }
            return Entry(
                latitude: latitude, longitude: longitude, population: population, band: Int16(band(latitude)),
                kind: isSection ? .section : .place, country: country, name: fields[0], admin1: fields[4], admin2: fields[5])
        }
    }

    /// GeoNames' feature code for a section of a populated place.
    private static let sectionCode: [UInt8] = Array("PPLX".utf8)

    private static let powersOfTen: [Double] = (0...18).map { pow(10, Double($0)) }

    /// A plain decimal (`-12.345`, `7`), or `nil` for anything else.
    private static func decimal(_ base: UnsafePointer<UInt8>, _ text: Text) -> Double? {
        var index = Int(text.start)
        let end = index + Int(text.count)
        guard index < end else { return nil }
        var negative = false
        if base[index] == UInt8(ascii: "-") || base[index] == UInt8(ascii: "+") {
            negative = base[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < end {
            let byte = base[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                guard digits < 18 else { return nil }
                mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }
}
