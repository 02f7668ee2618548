package import Foundation
import NIOCore
import NIOSSL
package import PhotosStore
package import PostgresNIO

/// Where and how to connect, as libpq users expect: a `postgres://` or `postgresql://` URL
/// (`postgresql://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=verify-full&sslrootcert=ca.pem`),
/// then the `PG*` environment variables for what the URL leaves out, then `~/.pgpass` for a
/// password, then libpq's defaults.
///
/// URL parameters, each with its variable: `host` (`PGHOST`; a path is a Unix socket's
/// folder), `port` (`PGPORT`, 5432), `user` (`PGUSER`, the login name), `password`
/// (`PGPASSWORD`), `dbname` (`PGDATABASE`, the user name), `sslmode` (`PGSSLMODE`: `disable`,
/// `allow`, `prefer` (the default), `require`, `verify-ca`, `verify-full`), `sslrootcert`
/// (`PGSSLROOTCERT`, `~/.postgresql/root.crt`; `system` for the system's roots), `sslcert` and
/// `sslkey` (`PGSSLCERT`, `PGSSLKEY`, `~/.postgresql/postgresql.crt` and `.key`),
/// `connect_timeout` (`PGCONNECT_TIMEOUT`, seconds, at least 2; 10 when unset),
/// `application_name` (`PGAPPNAME`, else `photos`), `options` (`PGOPTIONS`, e.g. `-c
/// statement_timeout=5s`) and `passfile` (`PGPASSFILE`, `~/.pgpass`, ignored unless its mode is
/// 0600 or stricter).
///
/// Linux notes: one host per URL (libpq's lists of hosts are not read); `sslmode=require` with
/// a root certificate given or at `~/.postgresql/root.crt` verifies the chain, as libpq does.
package struct PostgresConnectionSettings: Sendable {
    package enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String
    package var sslMode: SSLMode
    /// The root certificates' file, `system`, or `nil` (none given, none at the default path).
    package var sslRootCert: String?
    /// Whether ``sslRootCert`` was named (by the URL or `PGSSLROOTCERT`) rather than found.
    package var sslRootCertNamed = false
    package var sslCert: String?
    package var sslKey: String?
    package var connectTimeout: TimeInterval
    /// How long a statement's answer is waited for before the connection is given up and the
    /// call fails as unavailable: `answer_timeout` (seconds; `PHOTOS_DATABASE_ANSWER_TIMEOUT`),
    /// 30 by default. A Linux addition to libpq's parameters (libpq waits for ever; a server
    /// must answer a client whose network stalled).
    package var answerTimeout: TimeInterval
    /// The pool: at most `pool_max` connections (20), `pool_idle` kept open however idle (0),
    /// the others closed after `pool_idle_timeout` seconds unused (60). Linux additions, set
    /// on postgres-nio's `PostgresClient` (maximum and minimum connections, idle timeout).
    package var poolMaximum = 20, poolIdle = 0
    package var poolIdleTimeout: TimeInterval = 60
    /// Prepared statements (``PostgresPreparedStatements``), psycopg's settings: a statement
    /// run `prepare_threshold` times on a connection (5) is prepared there; at most
    /// `prepared_max` are a connection (100; 0 prepares none, for a pooler such as PgBouncer
    /// before 1.21 in transaction mode, which can't keep them). Linux additions.
    package var prepareThreshold = 5, preparedMaximum = 100
    package var applicationName: String
    package var options: String?
    /// Whether the password came from the password file (for the errors, as libpq says it).
    package var passwordFromFile: URL?

    /// The settings `url` and `environment` give; `home` holds `.pgpass` and `.postgresql/`.
    /// - Throws: `StoreError.cannotOpen` naming what is wrong (never the password).
    package init(
        url: URL, environment: [String: String] = ProcessInfo.processInfo.environment,
        home: URL = FileManager.default.homeDirectoryForCurrentUser
    ) throws(StoreError) {
        let shown = url.redactingPassword
        guard let scheme = url.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw StoreError(.cannotOpen, "\(shown) is not a postgres:// or postgresql:// URL")
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw StoreError(.cannotOpen, "\(shown) is not a URL PostgreSQL reads")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let known = Set(["host", "hostaddr", "port", "user", "password", "dbname", "sslmode", "sslrootcert", "sslcert", "sslkey",
                         "connect_timeout", "application_name", "fallback_application_name", "options", "passfile", "answer_timeout", "pool_max", "pool_idle", "pool_idle_timeout",
                         "prepare_threshold", "prepared_max"])
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw StoreError(.cannotOpen, "\(shown): invalid URI query parameter \"\(unknown)\"")
        }
        func setting(_ name: String, _ variable: String) -> String? {
            if let value = query[name], !value.isEmpty { return value }
            if let value = environment[variable], !value.isEmpty { return value }
            return nil
        }
        let portText = url.port.map(String.init) ?? setting("port", "PGPORT") ?? "5432"
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw StoreError(.cannotOpen, "\(shown): invalid port number \"\(portText)\"")
        }
        self.port = port
        let urlHost = url.host(percentEncoded: false).flatMap { $0.isEmpty ? nil : $0 }
        host = urlHost ?? setting("host", "PGHOST") ?? Self.defaultHost(port: port)
        user = url.user(percentEncoded: false).flatMap { $0.isEmpty ? nil : $0 } ?? setting("user", "PGUSER") ?? Self.loginName()
        let path = url.path(percentEncoded: false).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        database = path.isEmpty ? (setting("dbname", "PGDATABASE") ?? user) : path
        let modeText = setting("sslmode", "PGSSLMODE") ?? "prefer"
        guard let mode = SSLMode(rawValue: modeText) else {
            throw StoreError(.cannotOpen, "\(shown): invalid sslmode value: \"\(modeText)\"")
        }
        sslMode = mode
        let postgresFolder = home.appendingPathComponent(".postgresql")
        if let named = setting("sslrootcert", "PGSSLROOTCERT") {
            sslRootCert = named
            sslRootCertNamed = true
        } else {
            let found = postgresFolder.appendingPathComponent("root.crt").path
            sslRootCert = FileManager.default.fileExists(atPath: found) ? found : nil
        }
        if (mode == .verifyCA || mode == .verifyFull) && sslRootCert == nil {
            throw StoreError(
                .cannotOpen,
                """
                \(shown): root certificate file "\(postgresFolder.appendingPathComponent("root.crt").path)" does not exist; \
                give one with sslrootcert, use the system's trusted roots with sslrootcert=system, or set sslmode to one that \
                doesn't verify the server's certificate
                """)
        }
        func clientFile(_ name: String, _ variable: String, _ fallback: String) -> String? {
            if let named = setting(name, variable) { return named }
            let found = postgresFolder.appendingPathComponent(fallback).path
            return FileManager.default.fileExists(atPath: found) ? found : nil
        }
        sslCert = clientFile("sslcert", "PGSSLCERT", "postgresql.crt")
        sslKey = clientFile("sslkey", "PGSSLKEY", "postgresql.key")
        let timeoutText = setting("connect_timeout", "PGCONNECT_TIMEOUT")
        if let timeoutText {
            guard let seconds = Int(timeoutText) else {
                throw StoreError(.cannotOpen, "\(shown): invalid integer value \"\(timeoutText)\" for connection option \"connect_timeout\"")
            }
            // libpq: 0 or less waits forever; 1 is taken as 2.
            connectTimeout = seconds <= 0 ? 24 * 3600 : TimeInterval(max(seconds, 2))
        } else {
            connectTimeout = 10
        }
        let answerText = setting("answer_timeout", "PHOTOS_DATABASE_ANSWER_TIMEOUT") ?? "30"
        guard let answer = Double(answerText), answer > 0 else {
            throw StoreError(.cannotOpen, "\(shown): invalid value \"\(answerText)\" for \"answer_timeout\" (seconds)")
        }
        answerTimeout = answer
        for (name, minimum) in [("pool_max", 1), ("pool_idle", 0), ("pool_idle_timeout", 1), ("prepare_threshold", 1), ("prepared_max", 0)] {
            guard let text = query[name], !text.isEmpty else { continue }
            guard let value = Int(text), value >= minimum else {
                throw StoreError(.cannotOpen, "\(shown): invalid value \"\(text)\" for \"\(name)\"")
            }
            switch name {
            case "pool_max": poolMaximum = value
            case "pool_idle": poolIdle = value
            case "prepare_threshold": prepareThreshold = value
            case "prepared_max": preparedMaximum = value
            default: poolIdleTimeout = TimeInterval(value)
            }
        }
        applicationName = setting("application_name", "PGAPPNAME") ?? query["fallback_application_name"] ?? "photos"
        options = setting("options", "PGOPTIONS")
        password = url.password(percentEncoded: false) ?? setting("password", "PGPASSWORD")
        if password == nil {
            let file = setting("passfile", "PGPASSFILE").map { URL(fileURLWithPath: $0) } ?? home.appendingPathComponent(".pgpass")
            if let found = PasswordFile(url: file).password(host: host, port: port, database: database, user: user) {
                password = found
                passwordFromFile = file
            }
        }
    }

    /// Where the connection goes and as whom, never the password: for messages and logs.
    package var description: String {
        let place = host.hasPrefix("/") ? "socket \(host)/.s.PGSQL.\(port)" : "\(host):\(port)"
        return "postgresql://\(user)@\(place)/\(database) (sslmode=\(sslMode.rawValue))"
    }

    /// libpq's default host: the Unix socket folder when the server's socket is there (Debian's
    /// `/var/run/postgresql`), else `localhost`.
    private static func defaultHost(port: Int) -> String {
        let folder = "/var/run/postgresql"
        return FileManager.default.fileExists(atPath: "\(folder)/.s.PGSQL.\(port)") ? folder : "localhost"
    }

    /// The operating system's name of the user running the process.
    private static func loginName() -> String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "postgres"
    }

    // MARK: - Connecting

    /// The connections to try, in order, as the SSL mode says: `allow` tries without TLS first
    /// and then with it; every other mode makes one attempt (`prefer` falls back to no TLS
    /// within it when the server has none).
    package func configurations() throws(StoreError) -> [PostgresConnection.Configuration] {
        switch sslMode {
        case .disable: return [try configuration(.disable)]
        case .allow: return [try configuration(.disable), try configuration(.require(try context(verification: .none)))]
        case .prefer: return [try configuration(.prefer(try context(verification: .none)))]
        case .require:
            // As libpq: a root certificate given (or at the default path) is checked.
            return [try configuration(.require(try context(verification: sslRootCert == nil ? .none : .noHostnameVerification)))]
        case .verifyCA: return [try configuration(.require(try context(verification: .noHostnameVerification)))]
        case .verifyFull: return [try configuration(.require(try context(verification: .fullVerification)))]
        }
    }

    private func configuration(_ tls: PostgresConnection.Configuration.TLS) throws(StoreError) -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if host.hasPrefix("/") {
            configuration = PostgresConnection.Configuration(
                unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            configuration = PostgresConnection.Configuration(
                host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .milliseconds(Int64(connectTimeout * 1000))
        var parameters = [("application_name", applicationName)]
        if let options { parameters.append(("options", options)) }
        configuration.options.additionalStartupParameters = parameters
        return configuration
    }

    /// The pool's configuration (postgres-nio's `PostgresClient`): the SSL mode's one attempt
    /// (`allow`, which makes two, is decided by a first connection: `plainWorked`), the pool's
    /// size and timeouts, and a keep-alive query every 30 s on idle connections.
    package func clientConfiguration(plainWorked: Bool = true) throws(StoreError) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if host.hasPrefix("/") {
            configuration = PostgresClient.Configuration(
                unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS
            switch sslMode {
            case .disable: tls = .disable
            case .allow: tls = plainWorked ? .disable : .require(try tlsConfiguration(verification: .none))
            case .prefer: tls = .prefer(try tlsConfiguration(verification: .none))
            case .require: tls = .require(try tlsConfiguration(verification: sslRootCert == nil ? .none : .noHostnameVerification))
            case .verifyCA: tls = .require(try tlsConfiguration(verification: .noHostnameVerification))
            case .verifyFull: tls = .require(try tlsConfiguration(verification: .fullVerification))
            }
            configuration = PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .milliseconds(Int64(connectTimeout * 1000))
        var parameters = [("application_name", applicationName)]
        if let options { parameters.append(("options", options)) }
        configuration.options.additionalStartupParameters = parameters
        configuration.options.maximumConnections = poolMaximum
        configuration.options.minimumConnections = min(poolIdle, poolMaximum)
        configuration.options.connectionIdleTimeout = .milliseconds(Int64(poolIdleTimeout * 1000))
        configuration.options.keepAliveBehavior = .init(frequency: .seconds(30))
        return configuration
    }

    /// The TLS context of the SSL mode: the root certificates to trust, and the client's
    /// certificate and key when there are.
    private func context(verification: CertificateVerification) throws(StoreError) -> NIOSSLContext {
        let tls = try tlsConfiguration(verification: verification)
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw StoreError(.cannotOpen, "can't set up TLS for \(description): \(error)")
        }
    }

    /// The TLS configuration of the SSL mode (checked: its files are read here).
    private func tlsConfiguration(verification: CertificateVerification) throws(StoreError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = verification
        do {
            if verification != .none, let root = sslRootCert {
                tls.trustRoots = root == "system" ? .default : .file(root)
                if root != "system", !FileManager.default.isReadableFile(atPath: root) {
                    throw StoreError(.cannotOpen, "could not read root certificate file \"\(root)\"")
                }
            }
            if let certificate = sslCert, let key = sslKey {
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
            }
            return tls
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.cannotOpen, "can't set up TLS for \(description): \(error)")
        }
    }
}

/// A `.pgpass` file: `hostname:port:database:username:password` lines, `*` matching anything,
/// `\:` and `\\` escaping, the first matching line winning. As libpq, it is ignored (with no
/// password found) when it isn't a plain file or when its group or others may read or write it.
struct PasswordFile {
    let url: URL

    func password(host: String, port: Int, database: String, user: String) -> String? {
        var found = stat()
        guard stat(url.path, &found) == 0, (found.st_mode & S_IFMT) == S_IFREG else { return nil }
        guard found.st_mode & (S_IRWXG | S_IRWXO) == 0 else {
            // libpq warns and reads no password from it.
            FileHandle.standardError.write(
                Data("WARNING: password file \"\(url.path)\" has group or world access; permissions should be u=rw (0600) or less\n".utf8))
            return nil
        }
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        // A socket connection matches the line for `localhost`, as libpq's default socket does.
        let hostName = host.hasPrefix("/") ? "localhost" : host
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.fields(String(line))
            guard fields.count >= 5 else { continue }
            let wanted = [hostName, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// A line's fields: split at unescaped colons, escapes undone.
    static func fields(_ line: String) -> [String] {
        var fields: [String] = [], current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
