import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence

/// `withLock` on a coordinated key beside the same on a plain key: what running each change
/// as a transaction of the store adds in SharingCore, with a store that costs nothing.
func coordinatedSuite() -> Suite {
  let store = DictionaryStore()
  let plain = Shared(wrappedValue: 0, DictionaryKey(name: "plain", store: store))
  let coordinated = Shared(
    wrappedValue: 0,
    CoordinatedDictionaryKey(base: DictionaryKey(name: "coordinated", store: store))
  )
  blackHole(plain.wrappedValue)
  blackHole(coordinated.wrappedValue)

  return Suite(
    name: "withLock, coordinated key beside a plain one, saving to a dictionary",
    unit: .nanoseconds,
    benchmarks: [
      Benchmark(
        name: "withLock { $0 += 1 }, coordinated",
        workload: increments(of: coordinated),
        baselineName: "plain key, saved after",
        baseline: increments(of: plain),
        target: .none
      )
    ],
    notes: [
      "Both values were read before, so their writes go through Swift Observation. The",
      "coordinated key's transaction reads the dictionary, runs the change and stores it",
      "under the store's lock; the plain key is handed the value after the change.",
    ]
  )
}

/// `withLock` on `.fileStorage(url, .coordinated)` beside `.fileStorage(url, throttle: .zero)`
/// on the real disk: both write every change before returning; the coordinated one also
/// takes the file's `flock` and reads the file first.
func coordinatedFileSuite() -> Suite {
  let directory = makeBenchmarkDirectory("coordinated")
  let (plain, coordinated) = withDependencies {
    $0.defaultFileStorage = .fileSystem
  } operation: {
    (
      Shared(
        wrappedValue: 0,
        .fileStorage(directory.appendingPathComponent("plain.json"), throttle: .zero)
      ),
      Shared(
        wrappedValue: 0,
        .fileStorage(directory.appendingPathComponent("coordinated.json"), .coordinated)
      )
    )
  }
  return Suite(
    name: "withLock on the disk, coordinated beside written through",
    unit: .milliseconds,
    benchmarks: [
      Benchmark(
        name: "withLock { $0 += 1 }, .coordinated",
        workload: increments(of: coordinated),
        baselineName: "throttle: .zero",
        baseline: increments(of: plain),
        target: .none
      )
    ],
    notes: [
      "Each change is written (temporary file, fsync, rename) before withLock returns, on",
      "both sides; the coordinated side also locks .<name>.lock and reads the file first.",
    ]
  )
}

/// A ``DictionaryKey`` whose changes are transactions of the store.
private struct CoordinatedDictionaryKey: CoordinatedSharedKey {
  let base: DictionaryKey

  var id: String { base.id }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    base.load(context: context, continuation: continuation)
  }

  func subscribe(
    context: LoadContext<Int>,
    subscriber: SharedSubscriber<Int>
  ) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }

  /// Held for a whole transaction, as a row lock would be.
  private static let rowLock = NSLock()

  func withTransaction(_ value: inout Int, _ body: (inout Int) throws -> Void) throws {
    Self.rowLock.lock()
    defer { Self.rowLock.unlock() }
    value = base.store.value(for: base.name) ?? value
    try body(&value)
    base.store.setValue(value, for: base.name)
  }
}
