public import SharingCore

/// The identity of an ``InMemoryKey``: its name and its store.
///
/// Its store keeps the shared reference of the value: every key with this identity (an
/// ``InMemoryKey``, one paired with a default, one that wraps it and forwards its identity)
/// shares that reference.
public struct InMemoryKeyID: Hashable, Sendable, ReferenceStoringKeyID {
  let key: String
  let store: InMemoryStorage

  @usableFromInline
  package func keep(_ reference: StoredReference) -> StoredReference {
    store.keep(reference, forKey: key)
  }

  @usableFromInline
  package func keptReference() -> StoredReference? {
    store.reference(forKey: key)
  }

  @usableFromInline
  package func storedValue<Stored: Sendable>(of type: Stored.Type) -> Stored? {
    store.value(forKey: key, of: type)
  }
}

extension SharedReaderKey where ID == InMemoryKeyID {
  /// The in-memory store, which keeps the shared reference of the value of every key with this
  /// identity.
  public var _referenceStore: _ReferenceStore? { _ReferenceStore(id) }
}
