import Foundation
import Observation
import SharingDependencies
import TestSupport
import Testing

@testable import SharingCore

/// Many tasks and threads reading, writing, deriving, observing, creating and dropping
/// shared values at once: exact totals, no deadlock, and nothing left alive once every
/// holder is gone.
@Suite struct StressTests {
  static let workers = 6
  static let iterations = 2_000

  @Test func mixedOperationsOnOneValueGiveExactTotals() async throws {
    let root = Locked<WeakRoot?>(nil)
    let observed = Locked(0)
    try await withWatchdog {
      let board = Shared(value: Board())
      root.withLock { $0 = WeakRoot(board.reference) }
      // NB: The sequence ends cleanly when left, and releases the root.
      let consumer = Task {
        var last = 0
        for await counter in board.counter.values {
          last = counter
          if counter == Board.expected.counter { break }
        }
        return last
      }
      await runConcurrently(tasks: Self.workers / 2, threads: Self.workers / 2) { worker in
        for iteration in 0..<Self.iterations {
          Board.operation(worker, iteration, on: board, observed: observed)
        }
      }
      #expect(board.wrappedValue == Board.expected)
      #expect(await consumer.value == Board.expected.counter)
    }
    #expect(observed.withLock { $0 } > 0)
    // NB: A yield the sequence handed to a dispatched job holds the root until that job ran.
    let isReleased = await eventually(within: .seconds(10)) {
      root.withLock { $0?.reference } == nil
    }
    #expect(isReleased, "the root outlived every holder")
  }

  /// Concurrent writers: the sequence is in order, and its last value is the final one.
  @Test func valuesStayInOrderUnderConcurrentWrites() async throws {
    let count = Shared(value: 0)
    let total = Self.workers * Self.iterations
    try await withWatchdog {
      let consumer = Task {
        var received: [Int] = []
        for await value in count.values {
          received.append(value)
          if value == total { break }
        }
        return received
      }
      await runConcurrently(tasks: Self.workers / 2, threads: Self.workers / 2) { _ in
        for _ in 0..<Self.iterations { count.withLock { $0 += 1 } }
      }
      let received = await consumer.value
      #expect(received.last == total)
      let outOfOrder = zip(received, received.dropFirst()).filter { $0 > $1 }
      #expect(
        outOfOrder.isEmpty,
        "\(outOfOrder.count) values after a newer one, e.g. \(outOfOrder.prefix(3))"
      )
    }
  }

  @Test func creatingAndDroppingKeyedValuesLosesNothing() async throws {
    let store = TestStore<Int>()
    let roots = Locked<[WeakRoot]>([])
    let references = DependencyValues.current.persistentReferences
    try await withWatchdog {
      await runConcurrently(tasks: Self.workers / 2, threads: Self.workers / 2) { _ in
        withDependencies {
          $0.persistentReferences = references
        } operation: {
          for iteration in 0..<Self.iterations / 4 {
            let count = Shared(wrappedValue: 0, .test("count", store: store))
            if iteration.isMultiple(of: 50) {
              roots.withLock { $0.append(WeakRoot(count.reference.root)) }
            }
            count.withLock { $0 += 1 }
            _ = count.wrappedValue
          }
        }
      }
    }
    #expect(store.value == Self.workers * Self.iterations / 4)
    // NB: Each root, including one created by a race and dropped unpublished, subscribed
    //     once and cancelled when it went away.
    #expect(store.subscriberCount == 0)
    #expect(store.cancellationCount > 0)
    #expect(roots.withLock { $0.allSatisfy { $0.reference == nil } })
    let count = Shared(wrappedValue: 0, .test("count", store: store))
    #expect(count.wrappedValue == Self.workers * Self.iterations / 4)
  }
}

/// A value with something to reach through each kind of derived shared value.
struct Board: Equatable, Sendable {
  var counter = 0
  var stats = Stats()
  var items = (0..<4).map { Item(id: $0) }
  var selected: Item? = Item(id: 100)

  struct Item: Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
  }

  /// The value after every worker performed every operation.
  static let expected: Board = {
    var board = Board()
    for worker in 0..<StressTests.workers {
      for iteration in 0..<StressTests.iterations {
        apply(worker, iteration, to: &board)
      }
    }
    return board
  }()

  private static func kind(_ worker: Int, _ iteration: Int) -> Int {
    (worker &* 31 &+ iteration &* 7) % 8
  }

  private static func apply(_ worker: Int, _ iteration: Int, to board: inout Board) {
    let item = iteration % 4
    switch kind(worker, iteration) {
    case 0: board.counter += 1
    case 1: board.stats.count += 1
    case 2, 3: board.items[item].count += 1
    case 4: board.selected?.count += 1
    default: break
    }
  }

  /// Performs one operation on a shared board, as ``expected`` counts it.
  static func operation(
    _ worker: Int,
    _ iteration: Int,
    on board: Shared<Board>,
    observed: Locked<Int>
  ) {
    let item = iteration % 4
    switch kind(worker, iteration) {
    case 0:
      board.withLock { $0.counter += 1 }
    case 1:
      board.stats.count.withLock { $0 += 1 }
    case 2:
      Array(board.items)[item].withLock { $0.count += 1 }
    case 3:
      board.items[id: item].withLock { $0?.count += 1 }
    case 4:
      Shared(board.selected)?.withLock { $0.count += 1 }
    case 5:
      let snapshot = board.wrappedValue
      #expect(snapshot.items.map(\.id) == [0, 1, 2, 3])
      #expect(board.read(\.counter).wrappedValue >= 0)
      #expect(SharedReader(board.stats).wrappedValue.count >= 0)
    case 6:
      withObservationTracking {
        _ = board.counter.wrappedValue
      } onChange: {
        observed.withLock { $0 += 1 }
      }
    default:
      _ = Array(board.items).map(\.wrappedValue.count)
      _ = board.items[id: item].wrappedValue
    }
  }
}

/// A weak reference to a root, to check that it went away.
struct WeakRoot: @unchecked Sendable {
  // NB: Unchecked: only read after every thread that wrote the list finished.
  weak var reference: AnyObject?

  init(_ reference: AnyObject) {
    self.reference = reference
  }
}

/// Whether `condition` holds within `timeout` (scaled under ThreadSanitizer), polling it.
func eventually(within timeout: Duration, _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + timeout * ThreadSanitizer.timeScale
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    try? await Task.sleep(for: .milliseconds(5))
  }
  return true
}
