public import Foundation

/// A certificate authority of a test's own and a server certificate it signed, made with
/// `openssl` (P-256 keys, valid for two days): for a throwaway PostgreSQL server with TLS.
public struct TestCertificates: Sendable {
    /// The authority's certificate (PEM): what a client trusts (`sslrootcert`).
    public let authority: URL
    /// The server's certificate (PEM), for `serverNames` (DNS names, or IP addresses).
    public let certificate: URL
    /// The server's private key (PEM).
    public let key: URL

    /// Makes them in `folder`.
    public init(in folder: URL, serverNames: [String] = ["localhost"], authorityName: String = "PhotoKit test CA") throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        authority = folder.appendingPathComponent("ca.pem")
        certificate = folder.appendingPathComponent("server.pem")
        key = folder.appendingPathComponent("server.key")
        let authorityKey = folder.appendingPathComponent("ca.key"), request = folder.appendingPathComponent("server.csr")
        let extensions = folder.appendingPathComponent("server.ext")
        let names = serverNames.map { $0.contains(where: \.isLetter) ? "DNS:\($0)" : "IP:\($0)" }.joined(separator: ",")
        try """
            subjectAltName=\(names)
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature,keyEncipherment
            extendedKeyUsage=serverAuth
            """.write(to: extensions, atomically: true, encoding: .utf8)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(
            ["req", "-x509"] + curve + ["-keyout", authorityKey.path, "-out", authority.path, "-days", "2", "-subj", "/CN=\(authorityName)",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Self.openssl(["req"] + curve + ["-keyout", key.path, "-out", request.path, "-subj", "/CN=\(serverNames.first ?? "localhost")"])
        try Self.openssl(
            ["x509", "-req", "-in", request.path, "-CA", authority.path, "-CAkey", authorityKey.path, "-CAcreateserial",
             "-out", certificate.path, "-days", "2", "-extfile", extensions.path])
    }

    private static func openssl(_ arguments: [String]) throws {
        try ExternalTool.run("/usr/bin/openssl", arguments)
    }
}
