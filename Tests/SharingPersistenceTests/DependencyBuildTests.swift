import Dispatch
import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import TestSupport
import Testing

/// What the two threads of ``DependencyBuildTests`` tell each other.
private final class BuildEvents: Sendable {
  let readerEvaluatesItsDefault = DispatchSemaphore(value: 0)
  let dependencyHoldsTheValue = DispatchSemaphore(value: 0)
  let readerRead = DispatchSemaphore(value: 0)
}

private enum BuildEventsKey: TestDependencyKey {
  static var testValue: BuildEvents { BuildEvents() }
}

/// Where a ``CountingDependency`` keeps its count.
private protocol CountPlace: Sendable {
  associatedtype Key: SharedKey<Int>
  static var key: Key { get }
}

/// A key whose store keeps the shared reference itself.
private enum InMemoryPlace: CountPlace {
  static var key: InMemoryKey<Int> { .inMemory("countMadeByADependency") }
}

/// A key whose shared reference the dependency scope's registry holds.
private enum FilePlace: CountPlace {
  static var key: FileStorageKey<Int> {
    .fileStorage(URL(fileURLWithPath: "/countMadeByADependency.json"))
  }
}

/// A dependency whose initialiser holds a shared value, and changes it before it returns.
private struct CountingDependency<Place: CountPlace>: TestDependencyKey {
  @Shared(Place.key) var count = 0

  init() {
    @Dependency(BuildEventsKey.self) var events
    events.dependencyHoldsTheValue.signal()
    // A reader that starts from this value must not read it before the change below: it may
    // only read once the value is built. So this wait runs out; the reader's signal would
    // come too early.
    _ = events.readerRead.wait(timeout: .now() + 0.5)
    $count.withLock { $0 += 1 }
  }

  static var testValue: CountingDependency { CountingDependency() }
}

@Suite struct DependencyBuildTests {
  /// swift-sharing's `lockingOrderWithDependencies`: a shared value whose default is being
  /// evaluated while another thread builds a dependency holding the same key waits for the
  /// build, then starts from the dependency's changed value rather than its own default.
  @Test func aSharedValueCreatedWhileAnotherThreadBuildsADependencyStartsFromItsChange()
    async throws
  {
    try await startsFromTheDependencysChange(in: InMemoryPlace.self)
    try await startsFromTheDependencysChange(in: FilePlace.self)
  }

  private func startsFromTheDependencysChange<Place: CountPlace>(
    in place: Place.Type
  ) async throws {
    let events = BuildEvents()
    try await withDependencies {
      $0[BuildEventsKey.self] = events
    } operation: {
      try await readerAndDependencyStartFromTheDependencysChange(in: place, events: events)
    }
  }

  private func readerAndDependencyStartFromTheDependencysChange<Place: CountPlace>(
    in place: Place.Type,
    events: BuildEvents
  ) async throws {
    try await withWatchdog(seconds: 30) {
      async let readerSaw = onThreadOfItsOwn { () -> Int in
        @Shared(Place.key) var count: Int = {
          events.readerEvaluatesItsDefault.signal()
          _ = events.dependencyHoldsTheValue.wait(timeout: .now() + 10)
          return 2
        }()
        defer { events.readerRead.signal() }
        return count
      }
      async let dependencySaw = onThreadOfItsOwn { () -> Int? in
        guard events.readerEvaluatesItsDefault.wait(timeout: .now() + 10) == .success else {
          return nil
        }
        @Dependency(CountingDependency<Place>.self) var dependency
        return dependency.count
      }
      let (reader, dependency) = await (readerSaw, dependencySaw)
      #expect(reader == 1, "\(Place.self)")
      #expect(dependency == 1, "\(Place.self)")
    }
  }
}
