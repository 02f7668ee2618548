public import Foundation
import PhotosLocking

extension PHFetchResult {
    /// Calls `block` with each object and its index, in order, until it sets `stop`.
    public func enumerateObjects(_ block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void) {
        enumerateObjects(options: [], using: block)
    }

    /// Enumerates every object; `.reverse` goes from last to first, `.concurrent` calls the
    /// block from several threads at once (in no particular order).
    public func enumerateObjects(
        options: NSEnumerationOptions = [], using block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        enumerateObjects(at: IndexSet(integersIn: 0..<count), options: options, using: block)
    }

    /// Enumerates the objects at `indexes`.
    public func enumerateObjects(
        at indexes: IndexSet, options: NSEnumerationOptions = [],
        using block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        if let last = indexes.last, last >= count {
            fatalError("PHFetchResult: index \(last) beyond bounds [0 .. \(count - 1)]")
        }
        let chunks = Self.chunks(of: indexes, size: 256, reversed: options.contains(.reverse))
        if options.contains(.concurrent) {
            enumerateConcurrently(chunks, using: block)
            return
        }
        var stop: ObjCBool = false
        for chunk in chunks {
            let objects = storage.load(chunk.lowerBound..<(chunk.upperBound))
            let order = options.contains(.reverse) ? Array(chunk.reversed()) : Array(chunk)
            for index in order {
                block(typed(objects[index - chunk.lowerBound]), index, &stop)
                if stop.boolValue { return }
            }
        }
    }

    private func enumerateConcurrently(
        _ chunks: [Range<Int>], using block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        let stopped = Atomic<Bool>(false)
        withoutActuallyEscaping(block) { block in
            let work = UncheckedSendable(block)
            DispatchQueue.concurrentPerform(iterations: chunks.count) { chunkIndex in
                guard !stopped.load(ordering: .relaxed) else { return }
                let chunk = chunks[chunkIndex]
                let objects = storage.load(chunk)
                var stop: ObjCBool = false
                for index in chunk {
                    work.value(typed(objects[index - chunk.lowerBound]), index, &stop)
                    if stop.boolValue {
                        stopped.store(true, ordering: .relaxed)
                        return
                    }
                    if stopped.load(ordering: .relaxed) { return }
                }
            }
        }
    }

    /// Contiguous runs of `indexes`, cut to at most `size`, in enumeration order.
    static func chunks(of indexes: IndexSet, size: Int, reversed: Bool) -> [Range<Int>] {
        var chunks: [Range<Int>] = []
        for range in indexes.rangeView {
            for start in stride(from: range.lowerBound, to: range.upperBound, by: size) {
                chunks.append(start..<Swift.min(start + size, range.upperBound))
            }
        }
        return reversed ? chunks.reversed() : chunks
    }
}

/// Linux addition: `for asset in result`, `result.map { ... }`, `Array(result)`.
///
/// Only `Sequence`, not `Collection`: a collection's members would change what Apple's code
/// means. `Collection.index(of:)` (deprecated, returning `nil` when absent) would win over
/// PHFetchResult's own ``PHFetchResult/index(of:)`` (returning `NSNotFound`) in some calls,
/// such as `fetchResult?.index(of: asset)`.
extension PHFetchResult: Sequence {
    public typealias Element = ObjectType

    public func makeIterator() -> Iterator {
        Iterator(result: self)
    }

    public var underestimatedCount: Int { count }

    /// Reads a batch at a time, without going through the shared cache.
    public struct Iterator: IteratorProtocol {
        let result: PHFetchResult<ObjectType>
        var position = 0
        var buffer: [PHObject] = []
        var bufferStart = 0

        public mutating func next() -> ObjectType? {
            guard position < result.count else { return nil }
            if position >= bufferStart + buffer.count {
                bufferStart = position
                buffer = result.storage.load(position..<Swift.min(result.count, position + 512))
            }
            defer { position += 1 }
            return result.typed(buffer[position - bufferStart])
        }
    }
}

extension PHFetchResult: NSFastEnumeration {
    public var photosFastEnumerationObjects: [Any] {
        objects(at: IndexSet(integersIn: 0..<count))
    }
}
