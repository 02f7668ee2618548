public import Foundation

/// An access key, its secret and, for temporary credentials, a session token.
///
/// Its descriptions and mirror never show the secret or the token: the type may be logged.
public struct AWSCredentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String {
        "AWSCredentials(accessKeyID: \(accessKeyID), secretAccessKey: <redacted>\(sessionToken == nil ? "" : ", sessionToken: <redacted>"))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["accessKeyID": accessKeyID, "secretAccessKey": "<redacted>", "sessionToken": sessionToken.map { _ in "<redacted>" } as Any])
    }
}

/// Where a bucket is and how to reach it, found where AWS's own tools look, in their order:
///
/// - Credentials: `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN`),
///   else the profile's `aws_access_key_id` / `aws_secret_access_key` / `aws_session_token` in
///   `~/.aws/credentials` (`AWS_SHARED_CREDENTIALS_FILE`), then in `~/.aws/config`
///   (`AWS_CONFIG_FILE`). The profile is `AWS_PROFILE` (else `AWS_DEFAULT_PROFILE`, else
///   `default`); in the config file it is the section `[profile NAME]` (`[default]` for the
///   default).
/// - Region: `AWS_REGION`, else `AWS_DEFAULT_REGION`, else the profile's `region`, else
///   `us-east-1`.
/// - Endpoint: `AWS_ENDPOINT_URL_S3`, else `AWS_ENDPOINT_URL`, else the profile's
///   `s3 = endpoint_url = ...` or `endpoint_url`, else AWS's own
///   (`https://s3.REGION.amazonaws.com`). `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true` ignores
///   the configured ones.
/// - Addressing: the profile's `s3 = addressing_style = path | virtual | auto`. `auto` (the
///   default) addresses AWS's endpoints by virtual host (`BUCKET.s3.REGION.amazonaws.com`)
///   and any other endpoint by path (`ENDPOINT/BUCKET/KEY`), which MinIO, Ceph RGW, Garage and
///   moto need.
///
/// Only the static credentials of the environment and the shared files are read: no
/// `credential_process`, SSO, web identity or instance metadata (on Apple's platforms none of
/// this exists; PhotoKit's iCloud needs no configuration).
public struct S3Configuration: Sendable, Equatable {
    public enum AddressingStyle: String, Sendable, Equatable {
        case auto, path, virtual
    }

    public var credentials: AWSCredentials
    public var region: String
    /// The endpoint, without a path (`http://127.0.0.1:9000`); nil for AWS's own.
    public var endpoint: URL?
    public var addressingStyle: AddressingStyle

    public init(credentials: AWSCredentials, region: String = "us-east-1", endpoint: URL? = nil, addressingStyle: AddressingStyle = .auto) {
        self.credentials = credentials
        self.region = region
        self.endpoint = endpoint
        self.addressingStyle = addressingStyle
    }

    /// Whether requests name the bucket in the path rather than the host.
    public var usesPathStyle: Bool {
        switch addressingStyle {
        case .path: true
        case .virtual: false
        case .auto: endpoint != nil
        }
    }

    /// The configuration AWS's tools would use in `environment` (the process's by default),
    /// reading the shared files under `home`.
    public static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        home: URL = FileManager.default.homeDirectoryForCurrentUser
    ) throws(S3Error) -> S3Configuration {
        func value(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        let profileName = value("AWS_PROFILE") ?? value("AWS_DEFAULT_PROFILE") ?? "default"
        let credentialsFile = value("AWS_SHARED_CREDENTIALS_FILE").map { URL(fileURLWithPath: Self.expandingTilde($0, home: home)) }
            ?? home.appendingPathComponent(".aws/credentials")
        let configFile = value("AWS_CONFIG_FILE").map { URL(fileURLWithPath: Self.expandingTilde($0, home: home)) }
            ?? home.appendingPathComponent(".aws/config")
        let fromCredentials = try AWSSharedFile.read(credentialsFile)?.section(profileName) ?? [:]
        let config = try AWSSharedFile.read(configFile)
        let fromConfig = config?.section(profileName == "default" ? "default" : "profile \(profileName)")
            ?? (profileName == "default" ? nil : config?.section(profileName)) ?? [:]

        let credentials: AWSCredentials
        if let key = value("AWS_ACCESS_KEY_ID"), let secret = value("AWS_SECRET_ACCESS_KEY") {
            credentials = AWSCredentials(
                accessKeyID: key, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN") ?? value("AWS_SECURITY_TOKEN"))
        } else if let key = fromCredentials["aws_access_key_id"], let secret = fromCredentials["aws_secret_access_key"] {
            credentials = AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: fromCredentials["aws_session_token"])
        } else if let key = fromConfig["aws_access_key_id"], let secret = fromConfig["aws_secret_access_key"] {
            credentials = AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: fromConfig["aws_session_token"])
        } else {
            throw S3Error(
                .credentials,
                "No S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give the profile '\(profileName)' "
                    + "aws_access_key_id and aws_secret_access_key in \(credentialsFile.path)")
        }
        let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? fromConfig["region"] ?? "us-east-1"
        let ignoresConfigured = value("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")?.lowercased() == "true"
        let endpointText = ignoresConfigured
            ? nil : value("AWS_ENDPOINT_URL_S3") ?? value("AWS_ENDPOINT_URL") ?? fromConfig["s3.endpoint_url"] ?? fromConfig["endpoint_url"]
        var endpoint: URL?
        if let endpointText {
            guard let url = URL(string: endpointText), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
                throw S3Error(.configuration, "The S3 endpoint '\(endpointText)' is not an http:// or https:// URL")
            }
            endpoint = url
        }
        let styleText = fromConfig["s3.addressing_style"] ?? "auto"
        guard let style = AddressingStyle(rawValue: styleText.lowercased()) else {
            throw S3Error(.configuration, "The profile '\(profileName)' has s3 addressing_style '\(styleText)'; it is path, virtual or auto")
        }
        return S3Configuration(credentials: credentials, region: region, endpoint: endpoint, addressingStyle: style)
    }

    static func expandingTilde(_ path: String, home: URL) -> String {
        path == "~" ? home.path : path.hasPrefix("~/") ? home.path + path.dropFirst() : path
    }
}

/// AWS's shared credentials and config files: INI sections of `name = value` lines, `#` and `;`
/// comments, and indented lines under a key with no value (`s3 =`) as that key's sub-settings
/// (read here as `s3.name`).
struct AWSSharedFile {
    var sections: [String: [String: String]] = [:]

    func section(_ name: String) -> [String: String]? {
        sections[name]
    }

    /// Nil when the file doesn't exist.
    static func read(_ url: URL) throws(S3Error) -> AWSSharedFile? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw S3Error(.configuration, "Could not read \(url.path): \(error.localizedDescription)")
        }
        return parse(text)
    }

    static func parse(_ text: String) -> AWSSharedFile {
        var file = AWSSharedFile()
        var current: String?
        var parent: String?
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
                current = trimmed.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                parent = nil
                if let current, file.sections[current] == nil { file.sections[current] = [:] }
                continue
            }
            guard let section = current, let equals = trimmed.firstIndex(of: "=") else { continue }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            let indented = line.first == " " || line.first == "\t"
            if indented, let parent {
                file.sections[section]?["\(parent).\(name)"] = value
            } else if value.isEmpty {
                parent = name
            } else {
                parent = nil
                file.sections[section]?[name] = value
            }
        }
        return file
    }
}
