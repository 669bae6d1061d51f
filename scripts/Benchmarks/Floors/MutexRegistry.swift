import Synchronization

/// The floor for keyed values: a `Mutex`-guarded dictionary from key names to boxes, which
/// returns the box for a name or creates it from the store's value.
final class MutexRegistry: Sendable {
  private let boxes = Mutex<[String: MutexBox<Int>]>([:])

  @inline(never)
  func box(for name: String, in store: DictionaryStore, default: Int) -> MutexBox<Int> {
    boxes.withLock { boxes in
      if let box = boxes[name] { return box }
      let box = MutexBox(store.value(for: name) ?? `default`)
      boxes[name] = box
      return box
    }
  }
}
