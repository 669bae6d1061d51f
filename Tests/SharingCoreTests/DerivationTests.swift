import SharingCore
import Testing

@Suite struct DerivationTests {
  @Test func writableKeyPathDerivesASharedValue() {
    let signUp = Shared(value: SignUpData())
    let phoneNumber: Shared<String> = signUp.phoneNumber
    phoneNumber.withLock { $0 = "555-1234" }
    #expect(signUp.wrappedValue.phoneNumber == "555-1234")
  }

  @Test func readOnlyKeyPathDerivesAReader() {
    let signUp = Shared(value: SignUpData(email: "a@b.c", phoneNumber: "1"))
    let isComplete: SharedReader<Bool> = signUp.isComplete
    #expect(isComplete.wrappedValue)
    signUp.phoneNumber.withLock { $0 = "" }
    #expect(!isComplete.wrappedValue)
  }

  @Test func deepDerivationWritesReachTheRootAndSiblings() {
    struct Profile: Equatable, Sendable { var stats = Stats() }
    struct AppState: Equatable, Sendable { var profile = Profile(); var other = 0 }
    let app = Shared(value: AppState())
    let count = app.profile.stats.count
    let stats = app.profile.stats
    count.withLock { $0 = 3 }
    #expect(app.wrappedValue.profile.stats.count == 3)
    #expect(stats.wrappedValue.count == 3)
    stats.withLock { $0.increment() }
    #expect(count.wrappedValue == 4)
  }

  @Test func derivedMembersWithoutAStoredOffsetReadAndWrite() {
    struct Grid: Sendable {
      var cells = [0, 0]
      var first: Int {
        get { cells[0] }
        set { cells[0] = newValue }
      }
    }
    final class Counter: @unchecked Sendable { var count = 0 }
    let grid = Shared(value: Grid())
    let first = grid.first
    let second = grid.cells[1]
    first.withLock { $0 = 1 }
    second.withLock { $0 += 2 }
    #expect(grid.wrappedValue.cells == [1, 2])
    #expect(first.wrappedValue == 1)
    #expect(second.wrappedValue == 2)

    let counter = Shared(value: Counter())
    let count = counter.count
    count.withLock { $0 += 1 }
    #expect(count.wrappedValue == 1)
    #expect(counter.wrappedValue.count == 1)
  }

  @Test func derivedStoredMembersHoldingReferencesReadAndWrite() {
    let signUp = Shared(value: SignUpData(email: "a@b.c"))
    let topics = signUp.topics
    let email = signUp.email
    topics.withLock { _ = $0.insert("swift") }
    email.withLock { $0 += ".d" }
    let copy = email.wrappedValue
    email.withLock { $0 = String(repeating: "x", count: 64) }
    #expect(copy == "a@b.c.d")
    #expect(topics.wrappedValue == ["swift"])
    #expect(signUp.wrappedValue.email == String(repeating: "x", count: 64))
  }

  @Test func readingTheRootInsideADerivedWriteSeesTheWriteSoFar() {
    let stats = Shared(value: Stats())
    let count = stats.count
    let seen = count.withLock { count in
      count = 5
      return stats.wrappedValue.count
    }
    #expect(seen == 5)
    #expect(stats.wrappedValue.count == 5)
  }

  @Test func unwrappingNilGivesNil() {
    let user = Shared<User?>(value: nil)
    #expect(Shared(user) == nil)
  }

  @Test func unwrappedValueReadsAndWritesThroughTheOptional() throws {
    let user = Shared<User?>(value: User(id: 1, name: "Blob"))
    let unwrapped = try #require(Shared(user))
    unwrapped.name.withLock { $0 = "Blob Sr." }
    #expect(user.wrappedValue?.name == "Blob Sr.")
  }

  @Test func unwrappedValueKeepsItsLastValueOnceTheBaseIsNil() throws {
    let user = Shared<User?>(value: User(id: 1, name: "Blob"))
    let unwrapped = try #require(Shared(user))
    user.withLock { $0 = nil }
    #expect(unwrapped.wrappedValue.name == "Blob")
    unwrapped.withLock { $0.name = "Dropped" }
    #expect(user.wrappedValue == nil)
    #expect(unwrapped.wrappedValue.name == "Blob")
  }

  @Test func arrayOfSharedElementsFollowsIdentities() {
    let todos = Shared(value: [Todo(id: 1, title: "a"), Todo(id: 2, title: "b")])
    let elements = Array(todos)
    #expect(elements.map(\.wrappedValue.title) == ["a", "b"])
    todos.withLock { $0.reverse() }
    elements[0].title.withLock { $0 = "A" }
    #expect(todos.wrappedValue.map(\.title) == ["b", "A"])
    #expect(elements.map(\.id) == [1, 2])
  }

  @Test func removedElementKeepsItsLastValueAndDropsWrites() {
    let todos = Shared(value: [Todo(id: 1, title: "a"), Todo(id: 2, title: "b")])
    let second = Array(todos)[1]
    todos.withLock { $0.removeAll { $0.id == 2 } }
    #expect(second.wrappedValue.title == "b")
    second.withLock { $0.title = "ghost" }
    #expect(todos.wrappedValue == [Todo(id: 1, title: "a")])
  }

  @Test func arrayOfSharedElementsWithoutIdentitiesFollowsPositions() {
    let counts = Shared(value: [1, 2, 3])
    let elements = Array(counts)
    #expect(elements.map(\.wrappedValue) == [1, 2, 3])
    elements[1].withLock { $0 += 10 }
    #expect(counts.wrappedValue == [1, 12, 3])
    counts.withLock { $0.reverse() }
    #expect(elements.map(\.wrappedValue) == [3, 12, 1])
  }

  @Test func sharedElementPastTheEndKeepsItsLastValueAndItsOwnWrites() {
    let counts = Shared(value: [1, 2, 3])
    let third = Array(counts)[2]
    counts.withLock { _ = $0.removeLast() }
    #expect(third.wrappedValue == 3)
    third.withLock { $0 += 1 }
    #expect(third.wrappedValue == 4)
    #expect(counts.wrappedValue == [1, 2])
  }

  @Test func collectionThatCannotGrowOrShrinkGivesSharedElementsAndReaders() {
    let slots = Shared(value: Slots(values: [1, 2, 3]))
    let elements: [Shared<Int>] = Array(slots)
    elements[0].withLock { $0 = 7 }
    #expect(slots.wrappedValue.values == [7, 2, 3])
    let readers: [SharedReader<Int>] = Array(SharedReader(slots))
    slots.withLock { $0[2] = 9 }
    #expect(readers.map(\.wrappedValue) == [7, 2, 9])
  }

  @Test func identifiedSubscriptReadsWritesRemovesAndAppends() throws {
    let todos = Shared(value: [Todo(id: 1, title: "a")])
    let first = todos[id: 1]
    #expect(first.wrappedValue?.title == "a")
    let unwrapped = try #require(Shared(first))
    unwrapped.isDone.withLock { $0 = true }
    #expect(todos.wrappedValue[0].isDone)

    todos[id: 2].withLock { $0 = Todo(id: 2, title: "b") }
    #expect(todos.wrappedValue.map(\.id) == [1, 2])

    first.withLock { $0 = nil }
    #expect(todos.wrappedValue.map(\.id) == [2])
    #expect(todos[id: 3].wrappedValue == nil)
  }

  @Test func readersOfAnArrayFollowElements() {
    let todos = Shared(value: [Todo(id: 1, title: "a")])
    let readers: [SharedReader<Todo>] = Array(SharedReader(todos))
    todos.withLock { $0[0].title = "changed" }
    #expect(readers[0].wrappedValue.title == "changed")
  }

  @Test func sharedReadDerivesAComputedReader() {
    let stats = Shared(value: Stats())
    let isPositive = stats.read { $0.count > 0 }
    #expect(!isPositive.wrappedValue)
    stats.withLock { $0.increment() }
    #expect(isPositive.wrappedValue)
  }
}

@Suite struct UnwrappedWriteTests {
  @Test func theBaseKeepsItsValueWhileAnUnwrappedWriteRuns() throws {
    let parent = Shared<Int?>(value: 1)
    let child = try #require(Shared(parent))
    child.withLock { $0 += parent.wrappedValue ?? -100 }
    #expect(parent.wrappedValue == 2)
  }
}

/// A collection whose elements can change but which cannot grow or shrink, as
/// `IdentifiedArray` cannot through `RangeReplaceableCollection`.
private struct Slots: MutableCollection, RandomAccessCollection, Sendable {
  var values: [Int]
  var startIndex: Int { values.startIndex }
  var endIndex: Int { values.endIndex }
  subscript(position: Int) -> Int {
    get { values[position] }
    set { values[position] = newValue }
  }
}
