import Foundation
import PhotosStore

extension PHAsset {
    /// The assets a search finds, best match first (then newest first); without words, the
    /// assets of the times and kinds it names, newest first.
    ///
    /// Words are looked up in the library's search index: file names, titles, captions and
    /// keywords (XMP, IPTC), camera make, model and lens, the places of the asset's location
    /// and the titles of albums holding it; every term must match. The result is a fetch like
    /// any other: observers registered with the library get change details for it.
    /// `options` filter and sort as for ``fetchAssets(with:)``; a sort in them replaces the
    /// relevance order.
    ///
    /// Linux addition: Apple's PhotoKit has no search.
    public class func fetchAssets(matching query: PHSearchQuery, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        var resolved = resolveOrTrap(options, for: .asset)
        if let filter = query.storeFilter() {
            resolved.filter = resolved.filter.map { .and([filter, $0]) } ?? filter
        }
        let match = SearchMatch(terms: query.terms, prefixLast: query.completesLastTerm)
        if match.isEmpty {
            if resolved.sort.isEmpty { resolved.sort = [StoreSort(.creationDate, ascending: false)] }
            if query.terms.isEmpty { return PHPhotoLibrary.current.fetchAssets(.library, options: resolved) }
            // Terms without a letter or digit left after splitting: nothing can match.
            resolved.filter = .constant(false)
            return PHPhotoLibrary.current.fetchAssets(.library, options: resolved)
        }
        return PHPhotoLibrary.current.fetchAssets(.search(match), options: resolved)
    }

    /// ``fetchAssets(matching:options:)`` for `text` as a person types it ("beach videos
    /// 2019"); throws `.invalidResource` for a query past ``PHSearchQuery/maximumLength``.
    ///
    /// Linux addition.
    public class func fetchAssets(matching text: String, options: PHFetchOptions?) throws(PHPhotosError) -> PHFetchResult<PHAsset> {
        fetchAssets(matching: try PHSearchQuery(text), options: options)
    }
}

extension PHSearchQuery {
    /// The times and kinds the query names, as a filter (nil: any).
    ///
    /// Years and months are read on the clock where the photo was taken (the file's time zone
    /// offset, else UTC); a year's creation dates are first narrowed by the indexed UTC date
    /// (±14 hours, the widest offsets there are), so a year is a range of the date index. Only
    /// a date within 14 hours of the year's ends has its local date worked out: the rest is in
    /// the year whatever its offset. Before v24 that spared SQLite the asset's row ("2019" on
    /// 1,000,000 assets: 261 → 45 ms in `sqlite3`); with v24's indexes, which hold the offset,
    /// it spares the arithmetic (56–79 → 44–47 ms).
    func storeFilter() -> StoreFilter? {
        var parts: [StoreFilter] = []
        if !years.isEmpty {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            func start(_ year: Int) -> Double {
                calendar.date(from: DateComponents(year: year, month: 1, day: 1))!.timeIntervalSince1970
            }
            let widest = 14.0 * 3600
            parts.append(
                .or(
                    years.map { range in
                        let lower = start(range.lowerBound), upper = start(range.upperBound + 1) - 0.001
                        return .and([
                            .between(.field(.creationDate), lower: .value(.real(lower - widest)), upper: .value(.real(upper + widest))),
                            .or([
                                .between(.field(.creationDate), lower: .value(.real(lower + widest)), upper: .value(.real(upper - widest))),
                                .between(.field(.localCreationDate), lower: .value(.real(lower)), upper: .value(.real(upper))),
                            ]),
                        ])
                    }))
        }
        if !months.isEmpty {
            parts.append(.isIn(.field(.localCreationMonth), months.sorted().map { .integer(Int64($0)) }))
        }
        if !mediaTypes.isEmpty {
            parts.append(.isIn(.field(.mediaType), mediaTypes.map(\.rawValue).sorted().map { .integer(Int64($0)) }))
        }
        if !mediaSubtypes.isEmpty {
            let bits = StoreOperand.value(.integer(Int64(mediaSubtypes.rawValue)))
            parts.append(.compare(.bitwiseAnd(.field(.mediaSubtypes), bits), .equal, bits))
        }
        if favoritesOnly {
            parts.append(.compare(.field(.isFavorite), .equal, .value(.integer(1))))
        }
        return parts.isEmpty ? nil : (parts.count == 1 ? parts[0] : .and(parts))
    }
}
