import SharingDependencies

/// A non-optional view of an optional shared value, made by ``Shared/init(_:)``.
///
/// When the base becomes `nil`, reads return the last non-`nil` value and writes are
/// dropped, so a child feature holding the view never crashes after its parent clears it.
final class UnwrappedReference<Value>: SharedReference, Sendable {
  private let base: any SharedReference<Value?>
  private let lastValue: Locked<Value>

  init(base: any SharedReference<Value?>, initialValue: Value) {
    self.base = base
    self.lastValue = Locked(initialValue)
  }

  var root: any SharedRoot { base.root }

  func read() -> Value {
    guard let value = base.read() else { return lastValue.withLock { $0 } }
    lastValue.withLock { $0 = value }
    return value
  }

  func modify(_ body: (inout Value) -> Bool) {
    base.modify { (optional: inout Value?) in
      guard optional != nil else {
        var detached = lastValue.withLock { $0 }
        return body(&detached)
      }
      // NB: Mutated in place, through the optional: the base keeps its value while the body
      //     runs, for anything that reads it meanwhile.
      let stands = body(&optional!)
      if let value = optional { lastValue.withLock { $0 = value } }
      return stands
    }
  }

  var description: String { "\(base.description)!" }
}
