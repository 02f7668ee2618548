import PhotosTestSupport
import Testing

@testable import PhotosStore

@Suite("Ordered membership edits")
struct OrderedMembershipTests {
    func apply(_ full: [String], view: [String]? = nil, _ operations: [MembershipEdit.Operation]) throws -> [String] {
        try OrderedMembership.apply(full: full, view: view ?? full, operations: operations, containerName: "album 'T'")
    }

    @Test func insertPutsEachObjectAtItsIndexAfterEarlierInsertions() throws {
        #expect(try apply(["a", "b", "c"], [.insert(["x", "y"], at: [0, 2])]) == ["x", "a", "y", "b", "c"])
        #expect(try apply(["a"], [.insert(["x"], at: [1])]) == ["a", "x"])
    }

    @Test func moveRemovesThenInsertsAtTheDestinationOfTheShortenedList() throws {
        #expect(try apply(["a", "b", "c", "d", "e"], [.move(from: [0, 1], to: 3)]) == ["c", "d", "e", "a", "b"])
        #expect(try apply(["a", "b", "c", "d"], [.move(from: [3], to: 0)]) == ["d", "a", "b", "c"])
    }

    @Test func removeReplaceAndAdd() throws {
        #expect(try apply(["a", "b", "c"], [.removeAt([0, 2])]) == ["b"])
        #expect(try apply(["a", "b", "c"], [.replace(at: [1], with: ["z"])]) == ["a", "z", "c"])
        #expect(try apply(["a", "b"], [.add(["b", "c", "c"])]) == ["a", "b", "c"])
        #expect(try apply(["a", "b", "c"], [.remove(["b", "q"])]) == ["a", "c"])
    }

    @Test func membersOutsideTheViewFollowTheirAnchor() throws {
        // h1 is before any visible member; h2 follows b.
        let full = ["h1", "a", "b", "h2", "c"]
        let view = ["a", "b", "c"]
        #expect(try apply(full, view: view, [.move(from: [1], to: 2)]) == ["h1", "a", "c", "b", "h2"])
        #expect(try apply(full, view: view, [.removeAt([1])]) == ["h1", "a", "h2", "c"])
        #expect(try apply(full, view: view, [.removeAt([0, 1])]) == ["h1", "h2", "c"])
        #expect(try apply(full, view: view, [.remove(["h2"])]) == ["h1", "a", "b", "c"])
        #expect(try apply(full, view: view, [.add(["h1"])]) == full, "adding a hidden member is a no-op")
    }

    @Test func staleViewEntriesAreIgnored() throws {
        #expect(try apply(["a", "b"], view: ["a", "gone", "b"], [.removeAt([1])]) == ["a"])
    }

    @Test func outOfRangeIndexesFailWithTheIndexNamed() throws {
        let error = #expect(throws: StoreError.self) { try apply(["a"], [.removeAt([3])]) }
        #expect(error?.message.contains("index 3") == true)
        #expect(error?.message.contains("album 'T'") == true)
        #expect(throws: StoreError.self) { try apply(["a"], [.insert(["x"], at: [2])]) }
        #expect(throws: StoreError.self) { try apply(["a", "b"], [.move(from: [0], to: 2)]) }
        #expect(throws: StoreError.self) { try apply(["a"], [.insert(["x", "y"], at: [0])]) }
    }

    @Test func randomEditsMatchAnNSMutableArrayModel() throws {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<500 {
            var model = (0..<Int.random(in: 0...8, using: &generator)).map { "m\($0)" }
            let start = model
            var operations: [MembershipEdit.Operation] = []
            var fresh = 0
            for _ in 0..<4 {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0:
                    let n = Int.random(in: 1...2, using: &generator)
                    var indexes: [Int] = []
                    var items: [String] = []
                    for k in 0..<n {
                        let index = Int.random(in: 0...(model.count + k), using: &generator)
                        indexes.append(index)
                        items.append("n\(fresh)")
                        fresh += 1
                    }
                    indexes.sort()
                    if Set(indexes).count != indexes.count { continue }
                    for (item, index) in zip(items, indexes) { model.insert(item, at: index) }
                    operations.append(.insert(items, at: indexes))
                case 1 where !model.isEmpty:
                    let indexes = Set((0..<Int.random(in: 1...min(2, model.count), using: &generator)).map { _ in
                        Int.random(in: 0..<model.count, using: &generator)
                    }).sorted()
                    for index in indexes.reversed() { model.remove(at: index) }
                    operations.append(.removeAt(indexes))
                case 2 where !model.isEmpty:
                    let indexes = Set((0..<Int.random(in: 1...min(3, model.count), using: &generator)).map { _ in
                        Int.random(in: 0..<model.count, using: &generator)
                    }).sorted()
                    let moving = indexes.map { model[$0] }
                    for index in indexes.reversed() { model.remove(at: index) }
                    let destination = Int.random(in: 0...model.count, using: &generator)
                    model.insert(contentsOf: moving, at: destination)
                    operations.append(.move(from: indexes, to: destination))
                default:
                    model.append("n\(fresh)")
                    operations.append(.add(["n\(fresh)"]))
                    fresh += 1
                }
            }
            #expect(try apply(start, operations) == model, "\(start) \(operations)")
        }
    }
}
