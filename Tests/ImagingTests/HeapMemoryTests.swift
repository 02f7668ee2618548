import Foundation
import Imaging
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// ``HeapMemory``: glibc's figures, and `malloc_trim` giving freed arena pages back.
@Suite("Heap memory")
struct HeapMemoryTests {
    /// `VmRSS` from /proc/self/status, in bytes.
    static func residentBytes() -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (Int(line.filter(\.isNumber)) ?? 0) * 1024
        }
        return 0
    }

    /// 128 MiB in 64 KiB blocks (below glibc's mmap threshold: from an arena), touched, then
    /// every other block freed: 64 MiB of holes glibc keeps (no two free blocks are
    /// adjacent, so nothing coalesces into the top and trims itself). Releasing them must
    /// drop the resident set by most of that, and report that it released something.
    @Test func releasingFreePagesShrinksTheResidentSet() {
        let block = 64 << 10, count = 2048
        let holes = count / 2 * block
        let blocks = (0 ..< count).map { _ -> UnsafeMutableRawPointer in
            let pointer = malloc(block)!
            memset(pointer, 0x5a, block)
            return pointer
        }
        defer { for index in stride(from: 1, to: count, by: 2) { free(blocks[index]) } }
        for index in stride(from: 0, to: count, by: 2) { free(blocks[index]) }
        #expect(HeapMemory.statistics.free >= holes, "the holes are free arena bytes")
        let before = Self.residentBytes()
        #expect(HeapMemory.releaseFreePages())
        let after = Self.residentBytes()
        #expect(before - after >= holes / 2, "resident \(before >> 20) MiB before, \(after >> 20) MiB after")
    }
}

/// ``HeapMemory/limitRetention()``, which libvips' start-up applies: blocks over the 4 MiB
/// threshold get their own mappings even after one was freed (glibc's dynamic threshold would
/// have risen to the freed block's size and served the next from an arena, to keep it).
@Suite("Heap retention")
struct HeapRetentionTests {
    /// glibc marks a chunk it mapped on its own with bit 1 (IS_MMAPPED) of the size word just
    /// before the block.
    static func isMapped(_ pointer: UnsafeMutableRawPointer) -> Bool {
        (pointer - MemoryLayout<Int>.size).load(as: Int.self) & 2 != 0
    }

    @Test func largeBlocksKeepTheirOwnMappingsOnceLibvipsStarted() throws {
        _ = try VipsImage.solid(width: 2, height: 2, rgb: [0, 0, 0])  // starts libvips
        let size = 3 * HeapMemory.mmapThreshold
        for _ in 0 ..< 3 {
            // glibc maps a block of its own only when no arena has room for it: in a process
            // whose other tests left that much free in the arenas (the whole suite in
            // parallel), a block from an arena says nothing of the threshold.
            let roomInArenas = HeapMemory.statistics.free >= size
            let block = try #require(malloc(size))
            #expect(Self.isMapped(block) || roomInArenas, "a \(size >> 20) MiB block from an arena: the threshold moved")
            free(block)
        }
        let small = try #require(malloc(64 << 10))
        #expect(!Self.isMapped(small), "64 KiB comes from an arena")
        free(small)
    }

    @Test func anEnvironmentSettingWins() {
        #expect(!HeapMemory.limitRetention(environment: ["MALLOC_MMAP_THRESHOLD_": "65536"]))
        #expect(!HeapMemory.limitRetention(environment: ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=1000000"]))
        #expect(HeapMemory.limitRetention(environment: [:]))
    }
}
