internal import CVips

/// The process's C heap (glibc malloc), where libvips, libjpeg and libheif keep their decode
/// buffers.
///
/// glibc gives each thread that allocates at the same time as another an arena of its own (up
/// to 8 per core) and keeps the memory freed in them for later: after a burst of concurrent
/// decodes, hundreds of megabytes can stay resident with nothing in use (issue 19: ~200 MB after
/// the image benchmark's cold run). ``releaseFreePages()`` hands those pages back; the image
/// manager calls it once its renders have been idle a moment (`IdleMemoryRelease`).
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

    /// The heap's figures now (`mallinfo2`; walks every arena).
    public static var statistics: Statistics {
        var inUse = 0, arena = 0, free = 0
        cvips_malloc_statistics(&inUse, &arena, &free)
        return Statistics(inUse: inUse, arena: arena, free: free)
    }
}
