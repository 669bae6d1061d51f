import SharingDependencies

/// The persisted roots alive in a dependency scope, one per key identity.
///
/// Live code shares one registry; each test gets its own through the dependency system, so
/// tests never see each other's shared values. The roots of keys whose store keeps them
/// (``SharedReaderKey/_referenceStore``) are not here: their store is their registry.
package final class PersistentReferences: Sendable {
  private struct State {
    var entries: [KeyID: Entry] = [:]
    /// Publications counted for keys with a root or a creation in progress.
    var generations: [KeyID: Generation] = [:]
    /// Keys already reported as misused, so that each is reported once.
    var reported: Set<KeyID> = []
  }

  /// The number of roots published for a key: a root created while another was published
  /// (and perhaps released again) may have loaded a value older than that one's last save,
  /// and must not be published. Kept while creations are in progress.
  private struct Generation {
    var published = 0
    var creations = 0
  }

  private struct Entry {
    weak var root: AnyObject?
    let identity: ObjectIdentifier
    let valueType: Any.Type
    /// Where the root was first created with a default, if it was.
    let site: CallSite?
  }

  private let state = Locked(State())

  package init() {}

  /// The root for a key, created, loaded and subscribed if the key has none.
  ///
  /// - Parameters:
  ///   - initialValue: The value a new root starts from; not evaluated when the key already
  ///     has a root, as the first holder's value wins.
  ///   - site: Where the shared value is declared, to report a key used with two value
  ///     types; `nil` when the initial value is not a default (`require:`, `load(_:)`).
  func root<Value: Sendable>(
    for key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    loading: Bool,
    site: CallSite?
  ) -> RootReference<Value> {
    let id = KeyID(key)
    let (live, generation) = state.withLock { state -> (AnyRootReference?, generation: Int) in
      if let live = Self.liveRoot(at: id, in: state.entries) { return (live, 0) }
      state.generations[id, default: Generation()].creations += 1
      return (nil, state.generations[id]?.published ?? 0)
    }
    if let live {
      return typed(live, for: key, saver: saver, initialValue: initialValue, site: site)
    }
    let (created, persistence) = KeyPersistence.root(
      persistedBy: key,
      saver: saver,
      initialValue: initialValue(),
      keepsReference: false,
      registeredIn: (self, id)
    )
    // A dependency being built on another thread may create a root for the key and change
    // it: this one waits for the build, and then uses that root if it was published.
    DependencyResolution.waitForValuesBeingBuilt()
    // Started before it is published, outside the lock: loading runs the key's code, which may
    // create other shared values.
    persistence.start(loading: loading)
    let published = state.withLock { state -> AnyRootReference? in
      var current = state.generations[id] ?? Generation()
      current.creations -= 1
      defer {
        let isIdle = current.creations == 0 && state.entries[id] == nil
        state.generations[id] = isIdle ? nil : current
      }
      if let live = Self.liveRoot(at: id, in: state.entries) { return live }
      guard current.published == generation else { return nil }
      current.published += 1
      state.entries[id] = Entry(
        root: created,
        identity: ObjectIdentifier(created),
        valueType: Value.self,
        site: site
      )
      return AnyRootReference(created, site: site)
    }
    guard let published else {
      // Another root came and went while this one loaded: load again.
      return root(for: key, saver: saver, initialValue: initialValue, loading: loading, site: site)
    }
    return typed(published, for: key, saver: saver, initialValue: initialValue, site: site)
  }

  func remove(_ id: KeyID, ifIdenticalTo identity: ObjectIdentifier) {
    state.withLock { state in
      guard let entry = state.entries[id], entry.identity == identity else { return }
      state.entries[id] = nil
      if state.generations[id]?.creations == 0 { state.generations[id] = nil }
    }
  }

  // NB: The entry is bound before its weak reference is read: Swift 6.3 miscompiles
  //     'entries.withLock { $0[id]?.root }' (optional chaining into a weak property of a
  //     dictionary element inside 'withLock') into a read of the wrong memory.
  private static func liveRoot(at id: KeyID, in entries: [KeyID: Entry]) -> AnyRootReference? {
    guard let entry = entries[id], let root = entry.root else { return nil }
    return AnyRootReference(root: root, valueType: entry.valueType, site: entry.site)
  }

  /// The key's root `existing`, if it holds a `Value`, which saves through `saver` too from
  /// now on; otherwise a root of its own for this use of the key with another value type,
  /// reported once per key: the later use gets a value the others do not see.
  ///
  /// - Parameter keepsReference: Whether the key's store keeps roots; a root of its own is
  ///   never kept there, nor registered, so its writes stay its own.
  func typed<Value: Sendable>(
    _ existing: AnyRootReference,
    for key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    site: CallSite?,
    keepsReference: Bool = false
  ) -> RootReference<Value> {
    if let root = existing.typed(Value.self) {
      if let saver { root.persistence?.adopt(saver: saver) }
      return root
    }
    if state.withLock({ $0.reported.insert(KeyID(key)).inserted }) {
      reportIssue(
        """
        The key \(String(reflecting: key)) is used with two value types:

          '\(existing.valueType)'\(existing.site.map { " at \($0)" } ?? "")
          '\(Value.self)'\(site.map { " at \($0)" } ?? "")

        Uses of one key share one value, so they must agree on its type. The later use gets \
        a value of its own, which the others do not see.
        """
      )
    }
    let (root, persistence) = KeyPersistence.root(
      persistedBy: key,
      saver: saver,
      initialValue: initialValue(),
      keepsReference: keepsReference
    )
    // A store that keeps roots holds none of this type: there is nothing to load.
    if !keepsReference { persistence.start(loading: true) }
    return root
  }
}

extension RootReference where Value: Sendable {
  /// The root of the value `key` persists, in the current dependency scope: the one the key's
  /// store keeps, or the one the scope's registry holds; created if there is none.
  ///
  /// - Parameters:
  ///   - saver: The key to save through, `nil` for a reader.
  ///   - loading: Whether a new root loads its value from the store.
  ///   - site: Where the declaration gives `initialValue` as its default; `nil` when the
  ///     initial value is not a default.
  static func persisted(
    by key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    loading: Bool = true,
    site: CallSite?
  ) -> RootReference {
    if let store = key._referenceStore {
      return store.root(
        persisting: key,
        saver: saver,
        initialValue: initialValue,
        loading: loading,
        site: site
      )
    }
    return DependencyValues.current.persistentReferences.root(
      for: key,
      saver: saver,
      initialValue: initialValue,
      loading: loading,
      site: site
    )
  }

  /// The root of the value `key` persists; one created holds `value`, without loading it.
  static func persisted(
    by key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    holding value: Value
  ) -> RootReference {
    persisted(by: key, saver: saver, initialValue: { value }, loading: false, site: nil)
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

/// Where a shared value is declared.
struct CallSite: Sendable, CustomStringConvertible {
  let fileID: StaticString
  let line: UInt

  var description: String { "\(fileID):\(line)" }
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
