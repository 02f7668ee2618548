public import Foundation
internal import CVips

/// The process's C heap (glibc malloc), where libvips, libjpeg and libheif keep their decode
/// buffers.
///
/// glibc gives each thread that allocates at the same time as another an arena of its own (up
/// to 8 per core) and keeps the memory freed in them for later: after a burst of concurrent
/// decodes, hundreds of megabytes can stay resident with nothing in use (issue 19: ~200 MB after
/// the image benchmark's cold run). Two things hand them back:
///
/// - ``limitRetention()`` (called when libvips starts): glibc raises its mmap threshold to the
///   size of each large block freed (up to 32 MiB) and its trim threshold to twice that, so
///   after a few decodes their buffers come from the arenas and each arena keeps up to 64 MiB
///   free at its top, which `malloc_trim` doesn't touch in a thread's arena. A fixed 4 MiB
///   mmap threshold keeps the large buffers (a decoded 12 MP image) in their own mappings,
///   returned when freed, and the arenas' tops trimmed past 128 KiB (measured: resident after
///   the cold run 182 → 95 MiB, the cold run as fast).
/// - ``releaseFreePages()``: the free pages inside the arenas; the image manager calls it once
///   its renders have been idle a moment (`IdleMemoryRelease`).
///
/// Linux only: on Apple platforms the system allocator returns memory itself.
public enum HeapMemory {
    /// What glibc's `mallinfo2` reports, in bytes.
    public struct Statistics: Sendable, Equatable {
        /// Allocated and not yet freed: arena bytes in use plus mmapped chunks.
        public var inUse: Int
        /// Held by the arenas (in use or free; freed pages handed back still count).
        public var arena: Int
        /// Free bytes in the arenas.
        public var free: Int
    }

    /// Gives the free pages of every malloc arena back to the kernel (`malloc_trim(0)`).
    /// Costs a walk over the arenas, holding each one's lock in turn (a few milliseconds after a
    /// burst of decodes). Returns whether any memory was released.
    @discardableResult
    public static func releaseFreePages() -> Bool {
        cvips_malloc_trim() != 0
    }

    /// The mmap threshold ``limitRetention()`` sets: 4 MiB.
    public static let mmapThreshold = 4 << 20

    /// Fixes glibc's mmap threshold at ``mmapThreshold`` (`mallopt(M_MMAP_THRESHOLD)`), which
    /// also keeps the trim threshold at glibc's 128 KiB, unless the environment already sets
    /// either (`MALLOC_MMAP_THRESHOLD_`, `MALLOC_TRIM_THRESHOLD_`, or `GLIBC_TUNABLES` naming
    /// them): the process's owner decides. Process-wide; idempotent. Returns whether it set it.
    @discardableResult
    public static func limitRetention(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if environment["MALLOC_MMAP_THRESHOLD_"] != nil || environment["MALLOC_TRIM_THRESHOLD_"] != nil { return false }
        if let tunables = environment["GLIBC_TUNABLES"], tunables.contains("malloc.mmap_threshold") || tunables.contains("malloc.trim_threshold") {
            return false
        }
        return cvips_malloc_set_mmap_threshold(Int32(mmapThreshold)) == 1
    }

    /// The heap's figures now (`mallinfo2`; walks every arena).
    public static var statistics: Statistics {
        var inUse = 0, arena = 0, free = 0
        cvips_malloc_statistics(&inUse, &arena, &free)
        return Statistics(inUse: inUse, arena: arena, free: free)
    }
}
