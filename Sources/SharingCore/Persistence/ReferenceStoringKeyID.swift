/// The identity of a key whose store keeps the shared reference of its value rather than
/// copies of the value.
///
/// The value lives in the reference, and the store keeps the reference for as long as the
/// store lives. So writes are not saved: a write costs what one to `Shared(value:)` costs,
/// whatever the value weighs, since no copy of it is handed to a store that would keep its
/// storage shared. And the first holder's value, its default included, outlives every
/// holder: later holders and loads find it through the kept reference.
///
/// Every key with such an identity (the store's own, one paired with a default, one that
/// wraps it and forwards its identity) shares the kept reference, as keys with equal
/// identities share one reference. The store is the registry of these references: they are
/// never in the dependency scope's ``PersistentReferences``, whose weak references would make
/// every retain and release of them take the runtime's slow path.
// NB: No primary associated type: casting to a parameterised existential checks the
//     constraint by demangling type names in the runtime, on every cast.
@usableFromInline
package protocol ReferenceStoringKeyID: Hashable, Sendable {
  /// Keeps `reference` for this identity, unless the store keeps one already.
  ///
  /// - Returns: The reference the store keeps: `reference`, or the one another shared value
  ///   kept first.
  func keep(_ reference: StoredReference) -> StoredReference

  /// The reference kept for this identity, if any.
  func keptReference() -> StoredReference?

  /// The value the store holds for this identity, if it is of this type: what loading a key
  /// of it finds.
  ///
  /// Only shared values change such a store, through the references it keeps, and loading
  /// it finds its value at once: a reference of the key is started from this value, with no
  /// load and no subscription.
  func storedValue<Stored: Sendable>(of type: Stored.Type) -> Stored?
}

extension ReferenceStoringKeyID {
  /// The reference the store keeps for this identity, of the value `key` persists, created
  /// and kept if the store keeps none.
  ///
  /// - Parameters:
  ///   - key: The key whose identity this is.
  ///   - saver: That key, as a key that saves its value; `nil` for a reader.
  ///   - loading: Whether a reference created starts from the store's value.
  ///   - site: Where the declaration gives `initialValue` as its default, if it does.
  func reference<Value: Sendable>(
    persisting key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    loading: Bool,
    site: CallSite?
  ) -> PersistentReference<Value> {
    if let kept = keptReference() {
      return reference(kept, for: key, saver: saver, initialValue: initialValue, site: site)
    }
    let created = PersistentReference(
      key: key,
      saver: saver,
      initialValue: initialValue(),
      storesReference: true,
      registration: nil
    )
    if loading { created.start(from: self) }
    // NB: Two shared values may create a reference for the key at once: the first kept wins.
    let kept = keep(StoredReference(root: created, site: site))
    guard kept.root !== created else { return created }
    return reference(kept, for: key, saver: saver, initialValue: initialValue, site: site)
  }

  /// The kept reference, or one of this use's own, starting from its default, if the kept
  /// one holds another type of value.
  private func reference<Value: Sendable>(
    _ kept: StoredReference,
    for key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    site: CallSite?
  ) -> PersistentReference<Value> {
    // NB: Not a cast, which looks up the metadata of the generic class: a kept reference is
    //     a 'PersistentReference' of its value type.
    guard kept.valueType != Value.self else {
      return unsafeDowncast(kept.root, to: PersistentReference<Value>.self)
    }
    return PersistentReferences.current.referenceOfItsOwn(
      for: key,
      saver: saver,
      initialValue: initialValue,
      site: site,
      existing: (kept.valueType, kept.site),
      storesReference: true
    )
  }
}

/// The store that keeps the shared reference of a key's value, as
/// ``SharedReaderKey/_referenceStore`` returns it for a key whose store keeps references.
public struct _ReferenceStore: Sendable {
  /// The key's identity in the store.
  @usableFromInline let id: any ReferenceStoringKeyID

  /// The store of the key with this identity.
  package init(_ id: some ReferenceStoringKeyID) {
    self.id = id
  }

  /// A handle on the reference the store keeps for `id` and a value of this type, if it
  /// keeps one: finding it is a lookup in the store, which the identity holds, rather than
  /// resolving the registry of the dependency scope and hashing the identity.
  @inlinable
  static func handle<Value>(
    keptFor id: some ReferenceStoringKeyID,
    of type: Value.Type
  ) -> SharedReference<Value>? {
    guard let kept = id.keptReference(), kept.valueType == Value.self else { return nil }
    // NB: Not a cast, which looks up the metadata of the generic class: a kept reference is
    //     a 'PersistentReference' of its value type.
    return HandleReference(base: unsafeDowncast(kept.root, to: SharedReference<Value>.self))
  }
}

extension SharedReaderKey where Value: Sendable {
  /// A handle on the reference the key's store keeps for a value of this type, if the key's
  /// store keeps references.
  @inlinable
  func handleOnKeptReference() -> SharedReference<Value>? {
    guard let store = _referenceStore else { return nil }
    return _ReferenceStore.handle(keptFor: store.id, of: Value.self)
  }
}

/// The shared reference of a value, as the store of a ``ReferenceStoringKeyID`` keeps it.
@usableFromInline
package struct StoredReference: @unchecked Sendable {
  // NB: Unchecked: the root guards its value with its own lock.
  @usableFromInline let root: AnyObject
  @usableFromInline let valueType: Any.Type
  /// Where the reference was first created with a default, if it was.
  let site: CallSite?

  init<Value: Sendable>(root: PersistentReference<Value>, site: CallSite?) {
    self.root = root
    self.valueType = Value.self
    self.site = site
  }

  /// The current value, if the reference holds a value of this type.
  package func value<Value: Sendable>(of type: Value.Type) -> Value? {
    guard valueType == Value.self else { return nil }
    return unsafeDowncast(root, to: PersistentReference<Value>.self).readUntracked()
  }
}
