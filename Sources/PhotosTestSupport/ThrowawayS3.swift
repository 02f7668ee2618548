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
        var environment = ProcessInfo.processInfo.environment
        // The first requests (the key's making) unsigned, then every one checked.
        if enforcesSignatures { environment["INITIAL_NO_AUTH_ACTION_COUNT"] = "4" }
        environment["MOTO_ALLOW_NONEXISTENT_REGION"] = "true"
        // A port found free may be taken by another test's server before moto binds it (moto
        // then exits, and the port answers for the other): ready means moto's own log says it
        // runs there; an exit means another port.
        var launched: (Process, Int)?
        var lastLog = ""
        for _ in 0..<5 where launched == nil {
            let port = try ThrowawayPostgres.freePort()
            let log = folder.appendingPathComponent("server-\(port).log")
            let server = try Self.watched(command + ["-H", "127.0.0.1", "-p", "\(port)"], environment: environment, log: log, stop: folder.appendingPathComponent("stop"))
            let deadline = Date().addingTimeInterval(60)
            while server.isRunning, Date() < deadline {
                lastLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                if lastLog.contains("Running on http://127.0.0.1:\(port)"), Self.answers(port: port) {
                    launched = (server, port)
                    break
                }
                usleep(50_000)
            }
            if launched == nil && server.isRunning {
                _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("stop").path, contents: nil)
                server.waitUntilExit()
                break
            }
        }
        guard let (server, port) = launched else {
            try? FileManager.default.removeItem(at: folder)
            throw Failure("moto's S3 server did not start: \(lastLog.suffix(2000))")
        }
        self.server = server
        self.port = port
        endpoint = URL(string: "http://127.0.0.1:\(port)")!
        if enforcesSignatures {
            credentials = try Self.makeKey(endpoint: endpoint)
        } else {
            credentials = ("testing", "testing")
        }
    }

    /// Runs `arguments` under a watchdog that kills it when this process is gone or `stop`
    /// appears, its output into `log`.
    static func watched(_ arguments: [String], environment: [String: String]? = nil, log: URL, stop: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        let script = """
            "$@" & server=$!
            while [ -d /proc/\(getpid()) ] && [ ! -e '\(stop.path)' ] && kill -0 $server 2>/dev/null; do sleep 0.1; done
            kill -KILL $server 2>/dev/null; wait $server
            """
        process.arguments = ["-c", script, "watchdog"] + arguments
        if let environment { process.environment = environment }
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try? handle.close()
        return process
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
    static func answers(port: Int) -> Bool {
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

/// A proxy in front of an S3 server that answers the first `failures` requests itself with
/// `status` (an S3 error document, `SlowDown` for 503), then passes every request through:
/// a storm of errors, as a store under load sends them. A Python process of the test's own.
public final class S3FaultProxy: @unchecked Sendable {
    // @unchecked Sendable: `process` is set once in `init`.
    public let endpoint: URL
    private let process: Process
    private let folder: URL

    /// `storeClockAhead`: seconds the store's clock is ahead of this machine's (negative:
    /// behind). As AWS does, a request signed more than 15 minutes from the store's time is
    /// refused, 403 `RequestTimeTooSkewed` (moto checks no times).
    /// `matching`: only requests whose path and query contain it fail (all, when nil).
    public init(target: URL, failures: Int, status: Int = 503, storeClockAhead: Int = 0, matching: String? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("s3-proxy-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let program = """
            import datetime, http.client, http.server, sys, threading, time, urllib.parse
            target, failures, status, ahead, matching = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
            host, target_port = target.split(':')
            lock = threading.Lock()
            left = [failures]
            class Proxy(http.server.BaseHTTPRequestHandler):
                protocol_version = 'HTTP/1.1'
                def log_message(self, *args): pass
                def handle_any(self):
                    length = int(self.headers.get('Content-Length') or 0)
                    body = self.rfile.read(length) if length else b''
                    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
                    stamp = self.headers.get('x-amz-date') or query.get('X-Amz-Date')
                    now = time.time() + ahead
                    if stamp:
                        signed = datetime.datetime.strptime(stamp, '%Y%m%dT%H%M%SZ').replace(tzinfo=datetime.timezone.utc).timestamp()
                        if abs(signed - now) > 900:
                            server_time = datetime.datetime.fromtimestamp(now, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')
                            answer = ('<?xml version="1.0" encoding="UTF-8"?><Error><Code>RequestTimeTooSkewed</Code>'
                                '<Message>The difference between the request time and the current time is too large.</Message>'
                                f'<RequestTime>{stamp}</RequestTime><ServerTime>{server_time}</ServerTime>'
                                '<MaxAllowedSkewMilliseconds>900000</MaxAllowedSkewMilliseconds></Error>').encode()
                            self.send_response(403)
                            self.send_header('Content-Type', 'application/xml')
                            self.send_header('Content-Length', str(len(answer)))
                            self.end_headers()
                            if self.command != 'HEAD': self.wfile.write(answer)
                            return
                    with lock:
                        fail = left[0] > 0 and matching in self.path
                        if fail: left[0] -= 1
                    if fail:
                        code = 'SlowDown' if status == 503 else 'InternalError'
                        answer = f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code><Message>Please reduce your request rate.</Message></Error>'.encode()
                        self.send_response(status)
                        self.send_header('Content-Type', 'application/xml')
                        self.send_header('Content-Length', str(len(answer)))
                        self.end_headers()
                        if self.command != 'HEAD': self.wfile.write(answer)
                        return
                    connection = http.client.HTTPConnection(host, int(target_port))
                    headers = {k: v for k, v in self.headers.items()}
                    connection.request(self.command, self.path, body=body, headers=headers)
                    response = connection.getresponse()
                    data = response.read()
                    self.send_response(response.status)
                    for k, v in response.getheaders():
                        if k.lower() not in ('content-length', 'transfer-encoding', 'connection', 'server', 'date'):
                            self.send_header(k, v)
                    self.send_header('Content-Length', str(len(data)))
                    self.end_headers()
                    if self.command != 'HEAD': self.wfile.write(data)
                do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_any
            server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Proxy)
            print('listening on', server.server_address[1], flush=True)
            server.serve_forever()
            """
        // It binds a port the system picks and says which.
        let log = folder.appendingPathComponent("proxy.log")
        let hostPort = "\(target.host ?? "127.0.0.1"):\(target.port ?? 80)"
        process = try ThrowawayS3.watched(
            ["/usr/bin/env", "python3", "-c", program, hostPort, "\(failures)", "\(status)", "\(storeClockAhead)", matching ?? ""], log: log, stop: folder.appendingPathComponent("stop"))
        let deadline = Date().addingTimeInterval(30)
        var port: Int?
        while port == nil {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            port = text.components(separatedBy: "listening on ").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
            if port != nil { break }
            guard process.isRunning, Date() < deadline else { throw ThrowawayS3.Failure("the fault proxy did not start: \(text.suffix(1000))") }
            usleep(20_000)
        }
        endpoint = URL(string: "http://127.0.0.1:\(port!)")!
    }

    deinit {
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("stop").path, contents: nil)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}
