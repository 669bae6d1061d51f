import Foundation
import Observation

/// The floor for writes that Swift Observation sees: an `@Observable` class holding an
/// integer behind an `NSLock`, as one would write it by hand.
///
/// A write pays Observation's `willSet`/`didSet`, as a write to a shared value that was
/// read does.
@Observable
final class ObservableCounter: @unchecked Sendable {
  // NB: Unchecked: 'value' is only accessed with 'lock' held.
  var value = 0
  @ObservationIgnored private let lock = NSLock()

  @inline(never)
  func read() -> Int {
    access(keyPath: \.value)
    lock.lock()
    defer { lock.unlock() }
    return _value
  }

  @inline(never)
  func increment() {
    withMutation(keyPath: \.value) {
      lock.lock()
      _value &+= 1
      lock.unlock()
    }
  }
}
