import Observation
import SharingDependencies
import Synchronization

/// Connects a root reference to Swift Observation and to change observers.
///
/// A root creates its center the first time it is read: an observer can only register
/// through a read, so writes to a value nobody has read skip observation entirely. The
/// center holds Observation's registrar and, once ``addObserver(_:)`` is first called, the
/// observers: few values have any.
final class ObservationCenter: Observable, @unchecked Sendable {
  // NB: Unchecked: 'registrar' is thread-safe, 'observers' atomic.
  private let registrar = ObservationRegistrar()
  // NB: Key paths are kept rather than spelled as literals at each call: a literal costs a
  //     retain and a release of the key path. The value's is stored in each center, as
  //     reading a static one costs about 10 instructions more per read of the value; the
  //     status's, read far less often, is kept once for all.
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

/// The closures called after every change of a value, registered with
/// ``SharedReference/addObserver(_:)``.
private final class ChangeObservers: @unchecked Sendable {
  // NB: Unchecked: 'callbacks' and 'nextID' are only accessed with 'lock' held; 'count' is
  //     atomic.
  private let lock = Lock()
  private var nextID = 0
  private var callbacks: [Int: @Sendable () -> Void] = [:]
  /// How many callbacks there are: a change with none takes no lock.
  private let count = Atomic<Int>(0)

  func add(_ onChange: @escaping @Sendable () -> Void) -> ObserverToken {
    let id = lock.withLock {
      defer { nextID += 1 }
      callbacks[nextID] = onChange
      return nextID
    }
    count.add(1, ordering: .relaxed)
    return ObserverToken { [weak self] in
      guard let self else { return }
      if lock.withLock({ callbacks.removeValue(forKey: id) }) != nil {
        count.subtract(1, ordering: .relaxed)
      }
    }
  }

  func notify() {
    guard count.load(ordering: .relaxed) > 0 else { return }
    let current = lock.withLock { Array(callbacks.values) }
    for callback in current { callback() }
  }
}
