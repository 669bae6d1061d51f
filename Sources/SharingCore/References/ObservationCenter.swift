import Observation
import SharingDependencies
import Synchronization

/// Connects a root to Swift Observation and to change observers: its registrar and, once
/// ``addObserver(_:)`` is first called, its observers (few values have any).
final class ObservationCenter: Observable, @unchecked Sendable {
  // Unchecked: 'registrar' is thread-safe, 'observers' atomic.
  private let registrar = ObservationRegistrar()
  private let valueKeyPath: any KeyPath<ObservationCenter, Void> & Sendable = \.value
  private static let statusKeyPath: any KeyPath<ObservationCenter, Void> & Sendable = \.status
  private let observers = Atomic<Unmanaged<ChangeObservers>?>(nil)

  deinit {
    observers.load(ordering: .acquiring)?.release()
  }

  /// Stand-ins for the observed properties: observation only needs their key paths.
  var value: Void { () }
  var status: Void { () }

  func accessValue() { registrar.access(self, keyPath: valueKeyPath) }
  func willSetValue() { registrar.willSet(self, keyPath: valueKeyPath) }
  func didSetValue() {
    registrar.didSet(self, keyPath: valueKeyPath)
    observers.load(ordering: .acquiring)?._withUnsafeGuaranteedRef { $0.notify() }
  }

  func accessStatus() { registrar.access(self, keyPath: Self.statusKeyPath) }
  func willSetStatus() { registrar.willSet(self, keyPath: Self.statusKeyPath) }
  func didSetStatus() { registrar.didSet(self, keyPath: Self.statusKeyPath) }

  func addObserver(_ onChange: @escaping @Sendable () -> Void) -> ObserverToken {
    observers.storeIfNil(ChangeObservers.init)._withUnsafeGuaranteedRef { $0.add(onChange) }
  }
}

/// The closures called after every change of a value.
final class ChangeObservers: Sendable {
  private let callbacks = Locked<(next: Int, all: [Int: @Sendable () -> Void])>((0, [:]))
  /// How many callbacks there are: a change with none takes no lock.
  private let count = Atomic<Int>(0)

  func add(_ onChange: @escaping @Sendable () -> Void) -> ObserverToken {
    let id = callbacks.withLock { callbacks in
      defer { callbacks.next += 1 }
      callbacks.all[callbacks.next] = onChange
      return callbacks.next
    }
    count.add(1, ordering: .relaxed)
    return ObserverToken { [weak self] in
      guard let self, callbacks.withLock({ $0.all.removeValue(forKey: id) }) != nil else { return }
      count.subtract(1, ordering: .relaxed)
    }
  }

  func notify() {
    guard count.load(ordering: .relaxed) > 0 else { return }
    for callback in callbacks.withLock({ Array($0.all.values) }) { callback() }
  }
}

/// The task-local state of change tracking, and the switch that keeps it off the read and
/// write paths when no ``ChangeTracker`` runs anywhere in the process.
enum SharedTracking {
  private static let activeScopes = Atomic<Int>(0)

  @TaskLocal static var trackers: [ChangeTracker] = []
  @TaskLocal static var asserting: ChangeTracker?

  /// Whether any tracker or assertion runs in the process.
  @inline(__always)
  static var isActive: Bool { activeScopes.load(ordering: .relaxed) != 0 }

  static func beginScope() { activeScopes.add(1, ordering: .relaxed) }
  static func endScope() { activeScopes.subtract(1, ordering: .relaxed) }
}
