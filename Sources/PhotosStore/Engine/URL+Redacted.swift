package import Foundation

extension URL {
    /// The URL as text with its password replaced by `***`: how a database URL appears in
    /// messages and logs.
    package var redactingPassword: String {
        guard password != nil, var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return absoluteString }
        components.password = "***"
        return components.string ?? absoluteString
    }
}
