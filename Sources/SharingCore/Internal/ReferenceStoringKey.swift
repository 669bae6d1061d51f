/// A key whose store keeps the shared reference of its value rather than copies of the value.
///
/// The value lives in the reference, and the store keeps the reference for as long as the
/// store lives. So writes are not saved: a write costs what one to `Shared(value:)` costs,
/// whatever the value weighs, since no copy of it is handed to a store that would keep its
/// storage shared. And the first holder's value, its default included, outlives every
/// holder: later holders and loads find it through the kept reference.
package protocol ReferenceStoringKey<Value>: SharedKey {
  /// Keeps the reference published for the key's identity, replacing any kept before.
  func keep(_ reference: StoredReference<Value>)
}

/// The shared reference of a value, as a ``ReferenceStoringKey``'s store keeps it.
package struct StoredReference<Value>: @unchecked Sendable {
  // NB: Unchecked: the root guards its value with its own lock.
  let root: RootReference<Value>

  /// The current value.
  package var value: Value { root.readUntracked() }
}
