import Observation
import SharingDependencies
import Synchronization

/// Connects a root reference to Swift Observation and to change observers.
///
/// A root creates its center the first time it is read: an observer can only register
/// through a read, so writes to a value nobody has read skip observation entirely.
final class ObservationCenter: Observable, @unchecked Sendable {
  // NB: Unchecked: 'observers' is only accessed with 'observersLock' held; the rest is
  //     immutable or atomic. A lock and a field rather than a 'Locked' box: one allocation
  //     fewer for every value that is read.
  private let registrar = ObservationRegistrar()
  // NB: Stored, not spelled as a literal at each call: passing a stored key path avoids a
  //     retain and release of the key path on every read.
  private let valueKeyPath: any KeyPath<ObservationCenter, Void> & Sendable = \.value
  private let statusKeyPath: any KeyPath<ObservationCenter, Void> & Sendable = \.status
  private let observersLock = Lock()
  private var observers = Observers()
  private let observerCount = Atomic<Int>(0)

  private struct Observers {
    var nextID = 0
    var callbacks: [Int: @Sendable () -> Void] = [:]
  }

  /// Stand-ins for the observed properties: observation only needs their key paths.
  var value: Void { () }
  var status: Void { () }

  func accessValue() { registrar.access(self, keyPath: valueKeyPath) }
  func willSetValue() { registrar.willSet(self, keyPath: valueKeyPath) }
  func didSetValue() {
    registrar.didSet(self, keyPath: valueKeyPath)
    notifyObservers()
  }

  func accessStatus() { registrar.access(self, keyPath: statusKeyPath) }
  func willSetStatus() { registrar.willSet(self, keyPath: statusKeyPath) }
  func didSetStatus() { registrar.didSet(self, keyPath: statusKeyPath) }

  func addObserver(_ onChange: @escaping @Sendable () -> Void) -> ObserverToken {
    let id = observersLock.withLock {
      defer { observers.nextID += 1 }
      observers.callbacks[observers.nextID] = onChange
      return observers.nextID
    }
    observerCount.add(1, ordering: .relaxed)
    return ObserverToken { [weak self] in
      guard let self else { return }
      if observersLock.withLock({ observers.callbacks.removeValue(forKey: id) }) != nil {
        observerCount.subtract(1, ordering: .relaxed)
      }
    }
  }

  private func notifyObservers() {
    guard observerCount.load(ordering: .relaxed) > 0 else { return }
    let callbacks = observersLock.withLock { Array(observers.callbacks.values) }
    for callback in callbacks { callback() }
  }
}
