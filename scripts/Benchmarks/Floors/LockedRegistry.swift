import Foundation

/// The floor for keyed values: an `NSLock`-guarded dictionary from key names to boxes, which
/// returns the box for a name or creates it from the store's value.
final class LockedRegistry: @unchecked Sendable {
  // NB: Unchecked: 'boxes' is only accessed with 'lock' held.
  private let lock = NSLock()
  private var boxes: [String: LockedBox<Int>] = [:]

  @inline(never)
  func box(for name: String, in store: DictionaryStore, default: Int) -> LockedBox<Int> {
    lock.lock()
    defer { lock.unlock() }
    if let box = boxes[name] { return box }
    let box = LockedBox(store.value(for: name) ?? `default`)
    boxes[name] = box
    return box
  }
}
