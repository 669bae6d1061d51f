public import SharingCore

/// The identity of an ``InMemoryKey``: its name and its store.
///
/// Its store keeps the shared reference of the value: every key with this identity (an
/// ``InMemoryKey``, one paired with a default, one that wraps it and forwards its identity)
/// shares that reference.
public struct InMemoryKeyID: Hashable, Sendable, ReferenceStoringKeyID {
  let key: String
  let store: InMemoryStorage

  package func keep(_ root: AnyRootReference) -> AnyRootReference {
    store.keep(root, forKey: key)
  }

  package func keptRoot() -> AnyRootReference? {
    store.root(forKey: key)
  }

  package func storedValue<Stored: Sendable>(of type: Stored.Type) -> Stored? {
    store.value(forKey: key, of: type)
  }
}

extension SharedReaderKey where ID == InMemoryKeyID {
  /// The in-memory store, which keeps the shared reference of the value of every key with this
  /// identity.
  public var _referenceStore: _ReferenceStore? { _ReferenceStore(id) }
}
