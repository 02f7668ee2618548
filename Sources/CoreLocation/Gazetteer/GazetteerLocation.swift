package import Foundation

extension Gazetteer {
    /// Where the gazetteer is looked for: `$PHOTOS_GAZETTEER`, else
    /// `${XDG_DATA_HOME:-~/.local/share}/photos/gazetteer.tsv` (where
    /// `scripts/fetch-gazetteer.sh` writes it).
    package static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["PHOTOS_GAZETTEER"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let dataHome: URL
        if let path = environment["XDG_DATA_HOME"], path.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: path, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            dataHome = home.appendingPathComponent(".local/share", isDirectory: true)
        }
        return dataHome.appendingPathComponent("photos/gazetteer.tsv")
    }

    /// The gazetteer at ``defaultURL(environment:)``, loaded on first use and then kept for the
    /// life of the process; `nil` when there is no readable file there (moments then have no
    /// place names).
    package static let shared: Gazetteer? = {
        let url = defaultURL()
        guard FileManager.default.isReadableFile(atPath: url.path) else { return nil }
        return try? Gazetteer(contentsOf: url)
    }()
}

/// Which gazetteer a library names its moments' places from: part of the library's
/// configuration, never a process-wide setting, so libraries in one process (a server's, or
/// tests running in parallel) each use their own.
package enum GazetteerChoice: Sendable {
    /// The machine's, at ``Gazetteer/defaultURL(environment:)`` (loaded once per process, on
    /// first need); no place names when there is no file there.
    case machine
    /// This one; `nil`: no place names.
    case custom(Gazetteer?)

    /// The gazetteer chosen (loads the machine's on first use).
    package var gazetteer: Gazetteer? {
        switch self {
        case .machine: Gazetteer.shared
        case .custom(let gazetteer): gazetteer
        }
    }
}
