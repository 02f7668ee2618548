public import Foundation
import PhotosLocking

/// A word Tesseract read in an image: its text, its box in the image's pixels (origin top
/// left), Tesseract's confidence (0-100) and the line it is on (for showing matches in place).
public struct RecognizedWord: Sendable, Hashable, Codable {
    public var text: String
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public var confidence: Double
    /// Block, paragraph and line numbers joined (`1.1.2`): words of one line share it.
    public var line: String

    public init(text: String, x: Int, y: Int, width: Int, height: Int, confidence: Double, line: String) {
        self.text = text
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.confidence = confidence
        self.line = line
    }
}

/// Words in images, read by the `tesseract` command (Debian's `tesseract-ocr` and its
/// `tesseract-ocr-LANG` packs): one process per image, fed the encoded image on its standard
/// input, one thread (`OMP_THREAD_LIMIT=1`), at `niceness`, stopped after `timeout`.
///
/// An image Tesseract can't read, or gives up on within the timeout, is an ``ImagingError``
/// naming why (`decodeFailed`, or `timedOut`), never a hang.
public struct TextRecognizer: Sendable {
    /// Tesseract's language codes (`eng`, `deu`, `fra`...), tried together.
    public var languages: [String]
    /// How long one image may take.
    public var timeout: TimeInterval
    /// How much lower than this process the command runs (Linux `nice`, 0-19).
    public var niceness: Int
    /// Words Tesseract is less sure of (0-100) are left out.
    public var minimumConfidence: Double

    public init(languages: [String] = ["eng"], timeout: TimeInterval = 60, niceness: Int = 10, minimumConfidence: Double = 30) {
        self.languages = languages
        self.timeout = timeout
        self.niceness = niceness
        self.minimumConfidence = minimumConfidence
    }

    /// The `tesseract` command, when installed.
    public static let executable: URL? = ["/usr/bin/tesseract", "/usr/local/bin/tesseract"].lazy
        .map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// The languages installed (`tesseract --list-langs`), without `osd`.
    public static func installedLanguages() -> [String] {
        guard let executable, let output = try? run(executable, ["--list-langs"], input: nil, timeout: 30).output else { return [] }
        return String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline).dropFirst()
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "osd" }
    }

    /// The words in `image` (an encoded PNG, JPEG, TIFF, WebP, BMP or GIF: what Leptonica reads),
    /// in reading order.
    public func recognize(encoded image: Data, name: String = "the image") throws(ImagingError) -> [RecognizedWord] {
        try recognize(input: "stdin", data: image, name: name)
    }

    /// The words in the image file at `url` (a format Leptonica reads: PNG, JPEG, TIFF, WebP,
    /// BMP, GIF), read as it is stored (Tesseract applies no EXIF orientation), in reading
    /// order.
    public func recognize(fileAt url: URL, name: String = "the image") throws(ImagingError) -> [RecognizedWord] {
        try recognize(input: url.path, data: nil, name: name)
    }

    private func recognize(input: String, data: Data?, name: String) throws(ImagingError) -> [RecognizedWord] {
        guard let executable = Self.executable else {
            throw ImagingError(.unsupportedFormat, "Reading words in \(name) needs tesseract (apt install tesseract-ocr)")
        }
        let arguments = [input, "stdout", "-l", languages.joined(separator: "+"), "--psm", "3", "tsv"]
        let result: (output: Data, status: Int32, errors: String)
        do {
            result = try Self.run(executable, arguments, input: data, timeout: timeout, niceness: niceness)
        } catch let error as Timeout {
            throw ImagingError(.timedOut, "Tesseract gave up on \(name) after \(Int(error.seconds.rounded())) s")
        } catch {
            throw ImagingError(.decodeFailed, "Can't run tesseract for \(name): \(error)")
        }
        guard result.status == 0 else {
            let reason = result.errors.split(whereSeparator: \.isNewline).last.map(String.init) ?? "exit status \(result.status)"
            throw ImagingError(.decodeFailed, "Tesseract can't read \(name): \(reason)")
        }
        return Self.words(tsv: String(decoding: result.output, as: UTF8.self), minimumConfidence: minimumConfidence)
    }

    /// The word rows (level 5) of Tesseract's TSV: `level page block par line word left top
    /// width height conf text`.
    static func words(tsv: String, minimumConfidence: Double) -> [RecognizedWord] {
        tsv.split(whereSeparator: \.isNewline).dropFirst().compactMap { row in
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 12, fields[0] == "5", let confidence = Double(fields[10]), confidence >= minimumConfidence else { return nil }
            let text = fields[11...].joined(separator: "\t").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, let x = Int(fields[6]), let y = Int(fields[7]), let width = Int(fields[8]), let height = Int(fields[9]) else {
                return nil
            }
            return RecognizedWord(
                text: text, x: x, y: y, width: width, height: height, confidence: confidence,
                line: "\(fields[2]).\(fields[3]).\(fields[4])")
        }
    }

    struct Timeout: Error {
        var seconds: TimeInterval
    }

    /// Runs the command (through `nice` when asked), writing `input` to it on a thread of its
    /// own while standard output and error are read; kills it after `timeout`.
    static func run(
        _ executable: URL, _ arguments: [String], input: Data?, timeout: TimeInterval, niceness: Int = 0
    ) throws -> (output: Data, status: Int32, errors: String) {
        let process = Process()
        if niceness > 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/nice") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
            process.arguments = ["-n", String(min(19, niceness)), executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["OMP_THREAD_LIMIT"] = "1"
        process.environment = environment
        let output = Pipe(), errors = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input == nil ? FileHandle.nullDevice : standardInput
        // A child that stops reading makes writes fail (EPIPE), not end this process.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        // A thread of its own waits out the timeout (a global queue's may all be busy: on Linux
        // they are Swift concurrency's), then kills the child unless it has been reaped.
        let pid = process.processIdentifier
        let state = Mutex((reaped: false, timedOut: false))
        let exited = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            guard exited.wait(timeout: .now() + timeout) == .timedOut else { return }
            state.withLock { state in
                guard !state.reaped else { return }
                state.timedOut = true
                kill(pid, SIGKILL)
            }
        }
        let reading = DispatchGroup()
        if let input {
            reading.enter()
            Thread.detachNewThread {
                // try?: a child that exits early (a refused image) closes its end; its status says why.
                try? standardInput.fileHandleForWriting.write(contentsOf: input)
                try? standardInput.fileHandleForWriting.close()
                reading.leave()
            }
        }
        let errorText = Mutex(Data())
        reading.enter()
        Thread.detachNewThread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = data.suffix(4096) }
            reading.leave()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        reading.wait()
        process.waitUntilExit()
        let timedOut = state.withLock { state in
            state.reaped = true
            return state.timedOut
        }
        exited.signal()
        if timedOut { throw Timeout(seconds: timeout) }
        return (data, process.terminationStatus, String(decoding: errorText.withLock { $0 }, as: UTF8.self))
    }
}
