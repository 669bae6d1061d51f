import SharingDependencies

/// The store that keeps the roots of a key's values rather than copies of the values, as
/// ``SharedReaderKey/_referenceStore`` returns it (an in-memory key's).
///
/// The value lives in the root, and the store keeps the root for as long as the store lives.
/// So writes are not saved: a write costs what one to `Shared(value:)` costs, whatever the
/// value weighs, since no copy of it is handed to a store that would keep its storage shared.
/// And the first holder's value, its default included, outlives every holder: later holders
/// and loads find it through the kept root. The store is the registry of these roots: they
/// are never in the dependency scope's ``PersistentReferences``.
public struct _ReferenceStore: Sendable {
  /// The key's identity in the store.
  let id: any ReferenceStoringKeyID

  /// The store of the key with this identity.
  package init(_ id: some ReferenceStoringKeyID) {
    self.id = id
  }

  /// The root the store keeps for a value of this type, if it keeps one.
  @usableFromInline
  func keptRoot<Value>(of type: Value.Type) -> RootReference<Value>? {
    id.keptRoot()?.typed(Value.self)
  }

  /// The root the store keeps for the value `key` persists, created and kept if there is none.
  ///
  /// A root created starts from the store's value if `loading`, and is kept unless another
  /// shared value kept one first. The store is read where it is, and nothing but shared values
  /// changes it, so the root has no load and no subscription. A dependency being built on
  /// another thread may keep a root for the key and change it: that root is waited for, and
  /// wins.
  ///
  /// - Parameters:
  ///   - saver: `key`, as a key that saves its value; `nil` for a reader.
  ///   - loading: Whether a root created starts from the store's value.
  ///   - site: Where the declaration gives `initialValue` as its default, if it does.
  func root<Value: Sendable>(
    persisting key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    loading: Bool,
    site: CallSite?
  ) -> RootReference<Value> {
    let kept: AnyRootReference
    if let existing = id.keptRoot() {
      kept = existing
    } else {
      // The default is evaluated before the wait: a dependency may be built meanwhile.
      let value = initialValue()
      DependencyResolution.waitForValuesBeingBuilt()
      let (created, _) = KeyPersistence.root(
        persistedBy: key,
        saver: saver,
        initialValue: value,
        keepsReference: true
      )
      if loading, let stored = id.storedValue(of: Value.self) {
        created.write(from: .store) { $0 = stored }
      }
      kept = id.keep(AnyRootReference(created, site: site))
    }
    if let root = kept.typed(Value.self) { return root }
    return DependencyValues.current.persistentReferences.typed(
      kept,
      for: key,
      saver: saver,
      initialValue: initialValue,
      site: site,
      keepsReference: true
    )
  }
}

/// The identity of a value in a store that keeps roots rather than copies of values.
package protocol ReferenceStoringKeyID: Hashable, Sendable {
  /// Keeps `root` for this identity, unless the store keeps one already.
  ///
  /// - Returns: The root the store keeps: `root`, or the one another shared value kept first.
  func keep(_ root: AnyRootReference) -> AnyRootReference

  /// The root kept for this identity, if any.
  func keptRoot() -> AnyRootReference?

  /// The value the store holds for this identity, if it is of this type: what loading a key
  /// of it finds.
  func storedValue<Stored: Sendable>(of type: Stored.Type) -> Stored?
}

/// A root reference whose value type is known only at run time, as registries keep it.
package struct AnyRootReference: @unchecked Sendable {
  // Unchecked: the root guards its value with its own lock.
  let root: AnyObject
  let valueType: Any.Type
  /// Where the root was first created with a default, if it was.
  let site: CallSite?

  /// The root, if it holds a value of this type.
  func typed<Value>(_ type: Value.Type) -> RootReference<Value>? {
    guard valueType == Value.self else { return nil }
    return unsafeDowncast(root, to: RootReference<Value>.self)
  }

  /// The current value, if the root holds a value of this type.
  package func value<Value>(of type: Value.Type) -> Value? {
    typed(type)?.readUntracked()
  }
}

extension AnyRootReference {
  init<Value>(_ root: RootReference<Value>, site: CallSite?) {
    self.init(root: root, valueType: Value.self, site: site)
  }
}
