import TestSupport

@testable import SharingCore

extension WeakReferences {
  /// Follows the root reference of a keyed shared value, which the key's later uses share
  /// until it is released: a test awaits that release before a use that must not share it.
  func append<Value>(rootOf shared: Shared<Value>) {
    append(shared.reference.root)
  }
}
