import CoreLocation
import Foundation

/// Writes assets' rows of the search index (``SearchDocumentColumn``) inside the transaction of
/// the change that altered what they are found by, so a search never sees a change without
/// its words or words without their change.
///
/// An asset's words: the file names of its resources, its title, caption and keywords, its
/// camera's make and model and its lens, the places of its location (town, district, region,
/// country, from the gazetteer), the titles of the albums that hold it, and the words Tesseract
/// read in it (``TextRecognitionQueue``). Four reads for any number of assets, then an upsert
/// per hundred.
struct SearchDocuments {
    let db: any StoreConnection
    let gazetteer: GazetteerChoice

    /// Assets written per statement.
    private static let batch = 500

    /// Writes the rows of `assetIDs` as their assets are now (an id with no asset is skipped:
    /// its row went with it).
    func refresh(_ assetIDs: some Collection<Int64>) throws {
        let ids = Array(Set(assetIDs)).sorted()
        var start = 0
        while start < ids.count {
            let slice = Array(ids[start..<min(start + Self.batch, ids.count)])
            try refreshBatch(slice)
            start += Self.batch
        }
    }

    private struct Parts {
        var texts: [String] = []
        var latitude: Double?
        var longitude: Double?
    }

    private func refreshBatch(_ ids: [Int64]) throws {
        let list = StoreSQL.elements(ids)
        var parts: [Int64: Parts] = [:]
        let assets = try db.rows(
            """
            SELECT id, originalFilename, title, caption, keywords, cameraMake, cameraModel, lensModel, latitude, longitude \
            FROM asset WHERE id IN (\(list))
            """
        ) { row in
            (
                id: row.int64(0), texts: (1...7).compactMap { row.optionalText(Int32($0)) },
                latitude: row.optionalDouble(8), longitude: row.optionalDouble(9)
            )
        }
        for asset in assets {
            parts[asset.id] = Parts(texts: asset.texts, latitude: asset.latitude, longitude: asset.longitude)
        }
        guard !parts.isEmpty else { return }
        for (id, name) in try db.rows("SELECT assetID, originalFilename FROM resource WHERE assetID IN (\(list))", { ($0.int64(0), $0.optionalText(1)) }) {
            if let name { parts[id]?.texts.append(name) }
        }
        let albums = try db.rows(
            """
            SELECT albumAsset.assetID, collection.title FROM albumAsset JOIN collection ON collection.id = albumAsset.albumID \
            WHERE albumAsset.assetID IN (\(list))
            """
        ) { ($0.int64(0), $0.optionalText(1)) }
        for (id, title) in albums {
            if let title { parts[id]?.texts.append(title) }
        }
        let recognized = try db.rows(
            "SELECT assetID, words FROM textRecognition WHERE assetID IN (\(list)) AND state = 1 AND words IS NOT NULL"
        ) { ($0.int64(0), $0.optionalText(1)) }
        for (id, words) in recognized {
            if let words { parts[id]?.texts.append(words) }
        }
        var places = PlaceWords(gazetteer: gazetteer)
        var rows: [StoreSQL] = []
        for id in parts.keys.sorted() {
            guard var asset = parts[id] else { continue }
            if let latitude = asset.latitude, let longitude = asset.longitude { asset.texts += places.words(latitude: latitude, longitude: longitude) }
            rows.append("(\(id), \(SearchText.document(asset.texts)))")
        }
        // Many rows a statement: on PostgreSQL each statement is a round trip.
        var start = 0
        while start < rows.count {
            let values = StoreSQL.joined(Array(rows[start..<min(start + Self.rowsPerInsert, rows.count)]), separator: ", ")
            try db.execute(
                """
                INSERT INTO searchDocument (assetID, words) VALUES \(values) \
                ON CONFLICT (assetID) DO UPDATE SET words = excluded.words
                """)
            start += Self.rowsPerInsert
        }
        // Each document's length beside the asset's visibility, where SQLite's rank reads it
        // (`SearchRank`). PostgreSQL's (`ts_rank`) reads the vector: its column stays `NULL`.
        guard db.dialect == .sqlite else { return }
        try db.execute("\(unescaped: SearchDocumentColumn.settingLengths) WHERE id IN (\(list))")
    }

    /// Rows an upsert writes (two binds each: SQLite takes 32,766 a statement).
    private static let rowsPerInsert = 100
}

/// The names of the place at a coordinate, as words to find it by: the town, its district,
/// the region and the country (in English), through ``NearestPlaces`` (each coordinate looked
/// up once per ~100 m).
struct PlaceWords {
    private var places: NearestPlaces
    /// Countries' English names by ISO code (`Locale` is slow to ask, once per asset).
    private var countries: [String: String] = [:]

    init(gazetteer: GazetteerChoice) {
        places = NearestPlaces(gazetteer: gazetteer)
    }

    mutating func words(latitude: Double, longitude: Double) -> [String] {
        guard let place = places.place(latitude: latitude, longitude: longitude) else { return [] }
        var words = [place.name, place.district, place.admin1].compactMap { $0 }
        if !place.countryCode.isEmpty { words.append(country(place.countryCode)) }
        return words
    }

    private mutating func country(_ code: String) -> String {
        if let known = countries[code] { return known }
        let name = Self.english.localizedString(forRegionCode: code) ?? code
        countries[code] = name
        return name
    }

    private static let english = Locale(identifier: "en_US")
}
