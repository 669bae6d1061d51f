public import SharingCore
import SharingDependencies

/// The identity of an ``InMemoryKey``: its name and its store.
///
/// Its store keeps the shared reference of the value: every key with this identity (an
/// ``InMemoryKey``, one paired with a default, one that wraps it and forwards its identity)
/// shares that reference.
public struct InMemoryKeyID: Hashable, Sendable, ReferenceStoringKeyID {
  let key: String
  let store: InMemoryStorage

  /// Keeps `root` for the key, unless one is kept already; returns the one kept.
  package func keep(_ root: AnyRootReference) -> AnyRootReference {
    store.entries.withLock { entries in
      if case .root(let kept) = entries[key] { return kept }
      entries[key] = .root(root)
      return root
    }
  }

  /// The root kept for the key, if one is.
  package func keptRoot() -> AnyRootReference? {
    // NB: Matched under the lock, on the path of every shared value made on a held key:
    //     copying the entry out, as `storedValue` does once per load, copies its existential.
    store.entries.withLock { entries in
      guard case .root(let root) = entries[key] else { return nil }
      return root
    }
  }

  /// The key's value, from its kept root or as stored, if it is of this type.
  package func storedValue<Stored: Sendable>(of type: Stored.Type) -> Stored? {
    switch store.entries.withLock({ $0[key] }) {
    case .root(let root): root.value(of: Stored.self)
    case .value(let value): value as? Stored
    case nil: nil
    }
  }
}

extension SharedReaderKey where ID == InMemoryKeyID {
  /// The in-memory store, which keeps the shared reference of the value of every key with this
  /// identity.
  public var _referenceStore: _ReferenceStore? { _ReferenceStore(id) }
}
