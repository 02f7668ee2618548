public import Foundation
import Glibc

/// An S3 server of a test's own: moto's (`moto_server`, from PyPI's `moto[server]`), started as
/// a child process on a free loopback port and stopped when the value is released. Its buckets
/// live in its memory: each test makes its own.
///
/// `enforcesSignatures`: requests must be signed with ``credentials`` (moto's IAM checks every
/// signature after the first requests, which make that key); otherwise moto takes any.
///
/// Tests that need one are enabled with ``isAvailable`` and say why when they are skipped
/// (``unavailableReason``): a missing server is a skip with a message, never a pass.
public final class ThrowawayS3: @unchecked Sendable {
    // @unchecked Sendable: `server` and `stopped` change only in `init` and `stop()`.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public let endpoint: URL
    /// The key requests are signed with (moto's default when it doesn't check them).
    public let credentials: (accessKeyID: String, secretAccessKey: String)
    private let folder: URL
    private var server: Process?
    private var stopped = false

    /// The program that runs moto's server: `moto_server` on PATH, else `python3 -m moto.server`.
    static let command: [String]? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/moto_server"
            if FileManager.default.isExecutableFile(atPath: candidate) { return [candidate] }
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import moto.server, flask"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return nil }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? ["/usr/bin/env", "python3", "-m", "moto.server"] : nil
    }()

    /// Why a throwaway S3 server can't be started here, or `nil`.
    public static let unavailableReason: String? = {
        command == nil ? "moto's S3 server is not installed (pip install 'moto[server]'; make test installs it)" : nil
    }()

    public static var isAvailable: Bool { unavailableReason == nil }

    public init(enforcesSignatures: Bool = false) throws {
        guard let command = Self.command else { throw Failure(Self.unavailableReason ?? "moto is not installed") }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("s3-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try ThrowawayPostgres.freePort()
        endpoint = URL(string: "http://127.0.0.1:\(port)")!
        let stop = folder.appendingPathComponent("stop")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/bin/bash")
        let script = """
            "$@" & server=$!
            while [ -d /proc/\(getpid()) ] && [ ! -e '\(stop.path)' ] && kill -0 $server 2>/dev/null; do sleep 0.1; done
            kill -KILL $server 2>/dev/null; wait $server
            """
        server.arguments = ["-c", script, "watchdog"] + command + ["-H", "127.0.0.1", "-p", "\(port)"]
        var environment = ProcessInfo.processInfo.environment
        // The first requests (the key's making) unsigned, then every one checked.
        if enforcesSignatures { environment["INITIAL_NO_AUTH_ACTION_COUNT"] = "4" }
        environment["MOTO_ALLOW_NONEXISTENT_REGION"] = "true"
        server.environment = environment
        let log = folder.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        server.standardOutput = handle
        server.standardError = handle
        try server.run()
        try? handle.close()
        self.server = server
        let deadline = Date().addingTimeInterval(60)
        while !Self.answers(port: port) {
            guard server.isRunning, Date() < deadline else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                _ = FileManager.default.createFile(atPath: stop.path, contents: nil)
                server.waitUntilExit()
                try? FileManager.default.removeItem(at: folder)
                throw Failure("moto's S3 server did not start: \(text.suffix(2000))")
            }
            usleep(50_000)
        }
        if enforcesSignatures {
            credentials = try Self.makeKey(endpoint: endpoint)
        } else {
            credentials = ("testing", "testing")
        }
    }

    deinit { stopServer() }

    /// Stops the server and deletes its folder.
    public func stopServer() {
        guard !stopped else { return }
        stopped = true
        if let server, server.isRunning {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("stop").path, contents: nil)
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Makes a bucket (`PUT /BUCKET`, unsigned: moto takes it while signatures aren't checked,
    /// and tests with checked signatures make theirs through the client).
    public func makeBucket(_ name: String) throws {
        try Self.python(
            """
            import sys, urllib.request
            request = urllib.request.Request(sys.argv[1] + '/' + sys.argv[2], method='PUT')
            urllib.request.urlopen(request).read()
            """, [endpoint.absoluteString, name])
    }

    /// An IAM user with a key and a policy allowing everything, made with moto's unsigned
    /// first requests; every later request is checked against it.
    private static func makeKey(endpoint: URL) throws -> (accessKeyID: String, secretAccessKey: String) {
        let output = try python(
            """
            import sys, json, boto3
            iam = boto3.client('iam', endpoint_url=sys.argv[1], region_name='us-east-1',
                               aws_access_key_id='bootstrap', aws_secret_access_key='bootstrap')
            iam.create_user(UserName='photos')
            policy = json.dumps({'Version': '2012-10-17', 'Statement': [{'Effect': 'Allow', 'Action': '*', 'Resource': '*'}]})
            iam.put_user_policy(UserName='photos', PolicyName='all', PolicyDocument=policy)
            key = iam.create_access_key(UserName='photos')['AccessKey']
            print(key['AccessKeyId'] + ' ' + key['SecretAccessKey'])
            """, [endpoint.absoluteString])
        let parts = output.split(separator: " ").map(String.init)
        guard parts.count == 2 else { throw Failure("moto gave no access key: \(output)") }
        return (parts[0], parts[1])
    }

    /// Runs a Python program; its standard output, trimmed.
    @discardableResult
    public static func python(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure("python3 failed (\(process.terminationStatus)): \(errorText.suffix(2000))") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether something answers HTTP on `port`.
    private static func answers(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
