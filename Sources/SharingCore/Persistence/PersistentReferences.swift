import SharingDependencies

/// The persisted roots alive in a dependency scope, one per key identity.
///
/// Live code shares one registry; each test gets its own through the dependency system, so
/// tests never see each other's shared values. The roots of keys whose store keeps them
/// (``SharedReaderKey/_referenceStore``) are not here: their store is their registry.
package final class PersistentReferences: Sendable {
  private struct State {
    /// The keys with a root or a creation in progress.
    var entries: [KeyID: Entry] = [:]
    /// Keys already reported as misused, so that each is reported once.
    var reported: Set<KeyID> = []
  }

  /// A key's root, while it is alive, and the roots published and being created for the key.
  private struct Entry {
    weak var root: AnyObject?
    var valueType: Any.Type = Never.self
    /// Where the root was first created with a default, if it was.
    var site: CallSite?
    /// The number of roots published for the key: a root created while another was published
    /// (and perhaps released again) may have loaded a value older than that one's last save,
    /// and must not be published. Kept with the entry, while a root is alive or being created.
    var published = 0
    var creations = 0

    /// Whether the entry has no live root and no creation in progress, and can be removed.
    var isUnused: Bool { root == nil && creations == 0 }
  }

  private let state = Locked(State())

  package init() {}

  /// The root for a key, created, loaded and subscribed if the key has none.
  ///
  /// - Parameter initialValue: The value a new root starts from; not evaluated when the key
  ///   already has a root, as the first holder's value wins.
  func root<Value>(for use: KeyUse<Value>, initialValue: () -> Value) -> RootReference<Value> {
    let id = KeyID(use.key)
    let (live, generation) = state.withLock { state -> (AnyRootReference?, generation: Int) in
      if let live = Self.liveRoot(of: state.entries[id]) { return (live, 0) }
      state.entries[id, default: Entry()].creations += 1
      return (nil, state.entries[id]?.published ?? 0)
    }
    if let live { return typed(live, for: use, initialValue: initialValue) }
    let (created, persistence) = KeyPersistence.root(
      for: use,
      initialValue: initialValue(),
      registeredIn: (self, id)
    )
    // A dependency being built on another thread may create a root for the key and change
    // it: this one waits for the build, and then uses that root if it was published.
    DependencyResolution.waitForValuesBeingBuilt()
    // Started before it is published, outside the lock: loading runs the key's code, which may
    // create other shared values.
    persistence.start(loading: use.loading)
    let published = state.withLock { state -> AnyRootReference? in
      var entry = state.entries[id] ?? Entry()
      entry.creations -= 1
      defer { state.entries[id] = entry.isUnused ? nil : entry }
      if let live = Self.liveRoot(of: entry) { return live }
      guard entry.published == generation else { return nil }
      entry.published += 1
      (entry.root, entry.valueType, entry.site) = (created, Value.self, use.site)
      return AnyRootReference(created, site: use.site)
    }
    // Another root came and went while this one loaded: load again.
    guard let published else { return root(for: use, initialValue: initialValue) }
    return typed(published, for: use, initialValue: initialValue)
  }

  /// Removes the entry of a key whose root was released, unless a live root replaced it since
  /// or a creation is in progress.
  func removeReleased(_ id: KeyID) {
    state.withLock { state in
      guard let entry = state.entries[id], entry.isUnused else { return }
      state.entries[id] = nil
    }
  }

  // NB: The entry is bound before its weak reference is read: Swift 6.3 miscompiles
  //     'entries.withLock { $0[id]?.root }' (optional chaining into a weak property of a
  //     dictionary element inside 'withLock') into a read of the wrong memory.
  private static func liveRoot(of entry: Entry?) -> AnyRootReference? {
    guard let entry, let root = entry.root else { return nil }
    return AnyRootReference(root: root, valueType: entry.valueType, site: entry.site)
  }

  /// The key's root `existing`, if it holds a `Value`, which saves through the use's saver
  /// too from now on; otherwise a root of its own for this use of the key with another value
  /// type, reported once per key: the later use gets a value the others do not see. A root of
  /// its own is never kept in a store that keeps roots, nor registered, so its writes stay its
  /// own.
  func typed<Value>(
    _ existing: AnyRootReference,
    for use: KeyUse<Value>,
    initialValue: () -> Value
  ) -> RootReference<Value> {
    if let root = existing.typed(Value.self) {
      if let saver = use.saver { root.persistence?.adopt(saver: saver) }
      return root
    }
    if state.withLock({ $0.reported.insert(KeyID(use.key)).inserted }) {
      reportIssue(
        """
        The key \(String(reflecting: use.key)) is used with two value types:

          '\(existing.valueType)'\(existing.site.map { " at \($0)" } ?? "")
          '\(Value.self)'\(use.site.map { " at \($0)" } ?? "")

        Uses of one key share one value, so they must agree on its type. The later use gets \
        a value of its own, which the others do not see.
        """
      )
    }
    let (root, persistence) = KeyPersistence.root(for: use, initialValue: initialValue())
    // A store that keeps roots holds none of this type: there is nothing to load.
    if use.store == nil { persistence.start(loading: true) }
    return root
  }
}

/// The identity of a key, as a dictionary key.
struct KeyID: Hashable, @unchecked Sendable {
  // Unchecked: keys compute their identities as 'Sendable' values in practice ('Hashable' does not
  // imply 'Sendable').
  private let id: AnyHashable

  init(_ key: some SharedReaderKey) {
    self.id = AnyHashable(key.id)
  }
}

extension PersistentReferences {
  /// The registry of the current dependency scope.
  static var current: PersistentReferences {
    DependencyValues.current.persistentReferences
  }
}

extension DependencyValues {
  /// The registry of persisted roots in this dependency scope.
  package var persistentReferences: PersistentReferences {
    get { self[PersistentReferencesKey.self] }
    set { self[PersistentReferencesKey.self] = newValue }
  }
}

private enum PersistentReferencesKey: DependencyKey {
  static let liveValue = PersistentReferences()
  static var testValue: PersistentReferences { PersistentReferences() }
  static var previewValue: PersistentReferences { PersistentReferences() }
}
