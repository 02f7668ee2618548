package import Foundation

extension URL {
    /// The URL as text with its password (the user part's, and a `password=` parameter, as
    /// libpq's URLs may carry) replaced by `***`: how a database URL appears in messages and
    /// logs.
    package var redactingPassword: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return absoluteString }
        let inQuery = components.queryItems?.contains { $0.name == "password" } ?? false
        guard password != nil || inQuery else { return absoluteString }
        if password != nil { components.password = "***" }
        if inQuery {
            components.queryItems = components.queryItems?.map { $0.name == "password" ? URLQueryItem(name: "password", value: "***") : $0 }
        }
        return components.string ?? absoluteString
    }
}
