import Foundation

extension PHPhotoLibrary {
    /// The memory a library's image requests hold: its memory cache of decoded images, and the
    /// process's releases of freed heap memory after renders.
    ///
    /// Linux addition: Apple's Photos doesn't expose its caches. Benchmarks and `photos serve`
    /// use it to check the cache's bound and the memory given back at idle.
    public struct ImageMemoryStatistics: Sendable, Equatable {
        /// Decoded images in the memory cache.
        public var cachedImages: Int
        /// Bytes of pixels they take.
        public var cachedBytes: Int
        /// The most ``cachedBytes`` has been (after each insertion and the evictions it caused).
        public var peakCachedBytes: Int
        /// The cache's bound: past it, the least recently used images are evicted.
        public var cacheLimit: Int
        /// How many times the process gave the heap's free pages back to the kernel
        /// (`malloc_trim`) after its renders had been idle a moment (1 s); the process's count,
        /// for every library.
        public var idleMemoryReleases: Int
    }

    /// The image memory cache's figures now, and the process's idle memory releases.
    ///
    /// Linux addition.
    public var imageMemoryStatistics: ImageMemoryStatistics {
        let cache = imageLoader.cache
        return ImageMemoryStatistics(
            cachedImages: cache.count, cachedBytes: cache.totalCost, peakCachedBytes: cache.peakCost, cacheLimit: cache.costLimit,
            idleMemoryReleases: imageLoader.memoryRelease.releaseCount)
    }
}
