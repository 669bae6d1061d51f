import Foundation
import SharingCore

/// A trivial store for benchmarking keyed shared values: integers in a dictionary.
final class DictionaryStore: @unchecked Sendable {
  // NB: Unchecked: 'values' is only accessed with 'lock' held.
  private let lock = NSLock()
  private var values: [String: Int] = [:]

  @inline(never)
  func value(for name: String) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    return values[name]
  }

  @inline(never)
  func setValue(_ value: Int, for name: String) {
    lock.lock()
    defer { lock.unlock() }
    values[name] = value
  }
}

/// A key that loads from and saves to a ``DictionaryStore`` at once, and never changes
/// on its own: it measures what SharingCore adds around a store, not a store.
struct DictionaryKey: SharedKey {
  let name: String
  let store: DictionaryStore

  var id: String { name }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    if let value = store.value(for: name) {
      continuation.resume(returning: value)
    } else {
      continuation.resumeReturningInitialValue()
    }
  }

  func subscribe(
    context: LoadContext<Int>,
    subscriber: SharedSubscriber<Int>
  ) -> SharedSubscription {
    SharedSubscription {}
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    store.setValue(value, for: name)
    continuation.resume()
  }
}
