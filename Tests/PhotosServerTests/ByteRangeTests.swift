import Foundation
import Testing

@testable import PhotosServer

/// `Range` headers read as RFC 9110 §14.1 says, and what they select of a file.
@Suite("Byte ranges")
struct ByteRangeTests {
    @Test func readsTheThreeFormsOfARange() {
        #expect(ByteRange(header: "bytes=0-99")?.specs == [.from(0, through: 99)])
        #expect(ByteRange(header: "bytes=100-")?.specs == [.from(100, through: nil)])
        #expect(ByteRange(header: "bytes=-500")?.specs == [.suffix(500)])
        #expect(ByteRange(header: "Bytes=\t1-2 ,, 4-")?.specs == [.from(1, through: 2), .from(4, through: nil)])
        #expect(ByteRange(header: "bytes=18446744073709551616-")?.specs == [.from(Int64.max, through: nil)], "saturates")
    }

    @Test func malformedHeadersAreNil() {
        for header in ["", "bytes", "bytes=", "bytes=,", "bytes=a-b", "bytes=2-1", "bytes=1-2-3", "bytes=-", "bytes 1-2", "items=1-2",
            "bytes=1-2,x", "byte=1-2", "bytes=1 -2", "bytes=٣-4"] {
            #expect(ByteRange(header: header) == nil, "\(header)")
        }
    }

    @Test func resolvesAgainstTheFileSize() {
        let size: Int64 = 1000
        func resolve(_ header: String) -> ByteRange.Resolution? { ByteRange(header: header)?.resolve(size: size) }
        #expect(resolve("bytes=0-99") == .partial(0...99))
        #expect(resolve("bytes=990-2000") == .partial(990...999))
        #expect(resolve("bytes=999-") == .partial(999...999))
        #expect(resolve("bytes=-1") == .partial(999...999))
        #expect(resolve("bytes=-5000") == .partial(0...999))
        #expect(resolve("bytes=1000-") == .unsatisfiable)
        #expect(resolve("bytes=-0") == .unsatisfiable)
        #expect(resolve("bytes=0-1,5-6") == .full, "several ranges are answered whole")
        #expect(ByteRange(header: "bytes=0-")?.resolve(size: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-10")?.resolve(size: 0) == .full, "an empty file has no range to send")
    }

    @Test func lastModifiedIsAnIMFFixdate() {
        #expect(FileResponse.Validators.httpDate(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(FileResponse.Validators.httpDate(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(FileResponse.Validators.httpDate(1_709_210_096) == "Thu, 29 Feb 2024 12:34:56 GMT")
    }
}
