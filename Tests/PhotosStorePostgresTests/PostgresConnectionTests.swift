import Foundation
import PhotosStore
@testable import PhotosStorePostgres
import PhotosTestSupport
import Testing

/// Connections as libpq users expect them (issue 35): the URL's parameters, the `PG*`
/// variables, `~/.pgpass`, and each `sslmode` against a throwaway server with TLS and a
/// certificate authority made by the test.
@Suite("PostgreSQL connection settings")
struct PostgresConnectionSettingsTests {
    /// A home folder of the test's own (for `.pgpass` and `.postgresql/`).
    static func home() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-home-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theURLWinsOverTheVariablesWhichWinOverTheDefaults() throws {
        let home = try Self.home()
        let variables = [
            "PGHOST": "db.example", "PGPORT": "6543", "PGUSER": "env-user", "PGPASSWORD": "env secret", "PGDATABASE": "envdb",
            "PGSSLMODE": "require", "PGAPPNAME": "env-app", "PGOPTIONS": "-c statement_timeout=5s", "PGCONNECT_TIMEOUT": "1",
        ]
        let full = try PostgresConnectionSettings(
            url: URL(string: "postgresql://ana:url%20secret@127.0.0.1:7000/photos?sslmode=disable&application_name=gallery")!,
            environment: variables, home: home)
        #expect(full.host == "127.0.0.1" && full.port == 7000 && full.user == "ana" && full.password == "url secret")
        #expect(full.database == "photos" && full.sslMode == .disable && full.applicationName == "gallery")
        #expect(full.options == "-c statement_timeout=5s" && full.connectTimeout == 2, "libpq takes 1 s as 2")
        let bare = try PostgresConnectionSettings(url: URL(string: "postgres:///")!, environment: variables, home: home)
        #expect(bare.host == "db.example" && bare.port == 6543 && bare.user == "env-user" && bare.password == "env secret")
        #expect(bare.database == "envdb" && bare.sslMode == .require && bare.applicationName == "env-app")
        let defaults = try PostgresConnectionSettings(url: URL(string: "postgres://ben@localhost")!, environment: [:], home: home)
        #expect(defaults.port == 5432 && defaults.database == "ben" && defaults.sslMode == .prefer && defaults.password == nil)
        #expect(defaults.applicationName == "photos" && defaults.connectTimeout == 10)
        let parameters = try PostgresConnectionSettings(
            url: URL(string: "postgresql://?host=/tmp/sockets&port=5433&user=cy&dbname=lib&password=p%40ss")!, environment: [:], home: home)
        #expect(parameters.host == "/tmp/sockets" && parameters.port == 5433 && parameters.user == "cy" && parameters.database == "lib")
        #expect(parameters.password == "p@ss")
        #expect(parameters.description == "postgresql://cy@socket /tmp/sockets/.s.PGSQL.5433/lib (sslmode=prefer)")
    }

    @Test func wrongSettingsAreNamedAndNoPasswordIsShown() throws {
        let home = try Self.home()
        func refusal(_ url: String, _ environment: [String: String] = [:]) -> String {
            do {
                _ = try PostgresConnectionSettings(url: URL(string: url)!, environment: environment, home: home)
                return ""
            } catch {
                return error.message
            }
        }
        #expect(refusal("postgres://ana:hunter22@h/db?sslmode=sometimes").contains("invalid sslmode value: \"sometimes\""))
        #expect(refusal("postgres://h/db", ["PGSSLMODE": "verify-everything"]).contains("invalid sslmode value"))
        #expect(refusal("postgres://ana:hunter22@h/db?sslmod=require").contains("invalid URI query parameter \"sslmod\""))
        #expect(refusal("postgres://h:0/db").contains("invalid port number"))
        #expect(refusal("postgres://h/db?connect_timeout=soon").contains("connect_timeout"))
        let unverified = refusal("postgres://ana:hunter22@h/db?sslmode=verify-full")
        #expect(unverified.contains("root certificate file") && unverified.contains("sslrootcert=system"), "\(unverified)")
        #expect(refusal("http://ana:hunter22@h/db").contains("not a postgres:// or postgresql:// URL"))
        for url in ["postgres://ana:hunter22@h/db?sslmode=sometimes", "postgres://h/db?password=hunter22&sslmod=x"] {
            #expect(!refusal(url).contains("hunter22"), "\(refusal(url))")
        }
        #expect(URL(string: "postgres://a:hunter22@h/db?password=hunter22")!.redactingPassword == "postgres://a:***@h/db?password=***")
    }

    @Test func thePasswordFileIsReadAsLibpqReadsItAndOnlyWhenPrivate() throws {
        let home = try Self.home()
        let file = home.appendingPathComponent(".pgpass")
        try """
            # comment
            other:5432:*:ana:not this one
            127.0.0.1:5432:photos:ana:first\\:match
            *:*:*:ana:wildcard
            localhost:*:*:*:for the socket
            """.write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o600)
        func password(_ url: String, _ environment: [String: String] = [:]) throws -> String? {
            try PostgresConnectionSettings(url: URL(string: url)!, environment: environment, home: home).password
        }
        #expect(try password("postgres://ana@127.0.0.1/photos") == "first:match")
        #expect(try password("postgres://ana@127.0.0.1/other") == "wildcard")
        #expect(try password("postgres://ben@127.0.0.1/photos") == nil)
        #expect(try password("postgres://ben@%2Ftmp/photos") == "for the socket", "a socket matches localhost")
        #expect(try password("postgres://ana:given@127.0.0.1/photos") == "given", "the URL's wins")
        #expect(try password("postgres://ana@127.0.0.1/photos", ["PGPASSWORD": "variable"]) == "variable")
        let elsewhere = home.appendingPathComponent("elsewhere")
        try "*:*:*:*:from PGPASSFILE\n".write(to: elsewhere, atomically: true, encoding: .utf8)
        chmod(elsewhere.path, 0o600)
        #expect(try password("postgres://ben@127.0.0.1/photos", ["PGPASSFILE": elsewhere.path]) == "from PGPASSFILE")
        // Readable by others: ignored, as libpq ignores it.
        chmod(file.path, 0o644)
        #expect(try password("postgres://ana@127.0.0.1/photos") == nil)
    }
}

/// Each `sslmode` against real servers: one with TLS (a certificate for `localhost` signed by
/// the test's own authority), one without, one that takes only TLS connections, and one that
/// wants a password.
@Suite(
    "PostgreSQL connections with TLS",
    .postgresInstalled,
    .serialized)
struct PostgresTLSConnectionTests {
    static func connects(_ url: String, home: URL? = nil, environment: [String: String] = [:]) -> Result<Void, StoreError> {
        let home = home ?? (try? PostgresConnectionSettingsTests.home()) ?? FileManager.default.temporaryDirectory
        return Result { () throws(StoreError) in
            let settings = try PostgresConnectionSettings(url: URL(string: url)!, environment: environment, home: home)
            let session = try PostgresSession.connect(settings)
            defer { session.close() }
            try session.query("SELECT 1", "a query over the connection")
        }.mapError { $0 }
    }

    /// Whether the connection used TLS, as the server says (`pg_stat_ssl`).
    static func usesTLS(_ url: String) throws -> Bool {
        let settings = try PostgresConnectionSettings(url: URL(string: url)!, environment: [:], home: try PostgresConnectionSettingsTests.home())
        let session = try PostgresSession.connect(settings)
        defer { session.close() }
        let rows = try session.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", "asking whether TLS is on")
        return try rows.first?.decode(Bool.self) ?? false
    }

    @Test func verifyFullChecksTheAuthorityAndTheHostName() throws {
        let folder = try PostgresConnectionSettingsTests.home()
        let certificates = try TestCertificates(in: folder.appendingPathComponent("ca"))
        let stranger = try TestCertificates(in: folder.appendingPathComponent("other"), authorityName: "Another CA")
        let server = try ThrowawayPostgres(tls: certificates)
        let base = "postgres://postgres@localhost:\(server.port)/postgres"
        let ca = certificates.authority.path
        #expect(throws: Never.self) { try Self.connects("\(base)?sslmode=verify-full&sslrootcert=\(ca)").get() }
        #expect(try Self.usesTLS("\(base)?sslmode=verify-full&sslrootcert=\(ca)"))
        // The certificate names localhost, not 127.0.0.1.
        let byAddress = Self.connects("postgres://postgres@127.0.0.1:\(server.port)/postgres?sslmode=verify-full&sslrootcert=\(ca)")
        #expect(throws: StoreError.self) { try byAddress.get() }
        // verify-ca checks the chain only.
        #expect(throws: Never.self) {
            try Self.connects("postgres://postgres@127.0.0.1:\(server.port)/postgres?sslmode=verify-ca&sslrootcert=\(ca)").get()
        }
        // An authority the server's certificate doesn't come from.
        for mode in ["verify-full", "verify-ca"] {
            let unknown = Self.connects("\(base)?sslmode=\(mode)&sslrootcert=\(stranger.authority.path)")
            #expect(throws: StoreError.self, "\(mode)") { try unknown.get() }
            if case .failure(let error) = unknown { #expect(error.message.contains("sslmode=\(mode)"), "\(error.message)") }
        }
        // require, prefer and allow take TLS when the server has it; the variable works as the parameter.
        #expect(try Self.usesTLS("\(base)?sslmode=require"))
        #expect(try Self.usesTLS("\(base)?sslmode=prefer"))
        #expect(try !Self.usesTLS("\(base)?sslmode=disable"))
        #expect(throws: Never.self) { try Self.connects(base, environment: ["PGSSLMODE": "verify-full", "PGSSLROOTCERT": ca]).get() }
        #expect(throws: StoreError.self) {
            try Self.connects(base, environment: ["PGSSLMODE": "verify-full", "PGSSLROOTCERT": stranger.authority.path]).get()
        }
    }

    @Test func requireRefusesAServerWithoutTLSAndPreferAndAllowTakeIt() throws {
        let server = try ThrowawayPostgres()
        let base = "postgres://postgres@127.0.0.1:\(server.port)/postgres"
        let refused = Self.connects("\(base)?sslmode=require")
        #expect(throws: StoreError.self) { try refused.get() }
        #expect(try !Self.usesTLS("\(base)?sslmode=prefer"))
        #expect(try !Self.usesTLS("\(base)?sslmode=allow"))
    }

    @Test func allowRetriesWithTLSWhenTheServerWantsIt() throws {
        let certificates = try TestCertificates(in: PostgresConnectionSettingsTests.home())
        let server = try ThrowawayPostgres(tls: certificates, hba: ["hostssl all all 127.0.0.1/32 trust", "hostnossl all all 127.0.0.1/32 reject"])
        let base = "postgres://postgres@127.0.0.1:\(server.port)/postgres"
        #expect(throws: StoreError.self) { try Self.connects("\(base)?sslmode=disable").get() }
        #expect(try Self.usesTLS("\(base)?sslmode=allow"))
    }

    @Test func aPasswordComesFromThePasswordFileOrTheVariable() throws {
        let server = try ThrowawayPostgres(hba: ["host all postgres 127.0.0.1/32 trust", "host all ana 127.0.0.1/32 scram-sha-256"])
        _ = try server.psql("CREATE ROLE ana LOGIN PASSWORD 'ana''s password'")
        let url = "postgres://ana@127.0.0.1:\(server.port)/postgres?sslmode=disable"
        let home = try PostgresConnectionSettingsTests.home()
        let without = Self.connects(url, home: home)
        #expect(throws: StoreError.self) { try without.get() }
        #expect(throws: Never.self) { try Self.connects(url, home: home, environment: ["PGPASSWORD": "ana's password"]).get() }
        let file = home.appendingPathComponent(".pgpass")
        try "127.0.0.1:\(server.port):*:ana:ana's password\n".write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o600)
        #expect(throws: Never.self) { try Self.connects(url, home: home).get() }
        // A wrong password names the file it came from, and shows no password.
        try "127.0.0.1:\(server.port):*:ana:not ana's password\n".write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o600)
        let wrong = Self.connects(url, home: home)
        if case .failure(let error) = wrong {
            #expect(error.message.contains("password from \(file.path)") && !error.message.contains("not ana's password"), "\(error.message)")
        } else {
            Issue.record("a wrong password connected")
        }
        chmod(file.path, 0o644)
        #expect(throws: StoreError.self) { try Self.connects(url, home: home).get() }
    }
}
