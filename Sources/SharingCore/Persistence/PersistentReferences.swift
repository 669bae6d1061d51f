import SharingDependencies

/// The persisted references alive in a dependency scope, one per key identity.
///
/// Live code shares one registry; each test gets its own through the dependency system,
/// so tests never see each other's shared values. The references of keys whose identity is a
/// ``ReferenceStoringKeyID`` are not here: their store keeps them.
package final class PersistentReferences: Sendable {
  private struct State {
    var entries: [KeyID: Entry] = [:]
    /// Publications counted for keys with a reference or a creation in progress.
    var generations: [KeyID: Generation] = [:]
    /// Keys already reported as misused, so that each is reported once.
    var reported: Set<KeyID> = []
  }

  /// The number of references published for a key: a reference created while another was
  /// published (and perhaps released again) may have loaded a value older than that one's
  /// last save, and must not be published. Kept while creations are in progress.
  private struct Generation {
    var published = 0
    var creations = 0
  }

  /// A live entry, its reference held strongly.
  private struct LiveEntry {
    let reference: AnyObject
    let valueType: Any.Type
    let site: CallSite?
  }

  private struct Entry {
    weak var reference: AnyObject?
    let identity: ObjectIdentifier
    let valueType: Any.Type
    /// Where the reference was first created with a default, if it was.
    let site: CallSite?
  }

  private let state = Locked(State())

  package init() {}

  /// Returns the reference for a key, creating, loading and subscribing it if needed.
  ///
  /// - Parameters:
  ///   - initialValue: The value a newly created reference starts from; not evaluated when
  ///     the key already has a reference, as the first holder's value wins.
  ///   - site: Where the shared value is declared, to report a key used with two value
  ///     types; `nil` when the initial value is not a default (`require:`, `load(_:)`).
  func reference<Value: Sendable>(
    for key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    loading: Bool = true,
    site: CallSite?
  ) -> PersistentReference<Value> {
    let id = KeyID(key)
    // NB: A non-generic enum leaves the lock, not a '(LiveEntry?, Int)': the generic
    //     'withLock' looks up the metadata of its result type on every call.
    let lookup = state.withLock { state -> Lookup in
      if let existing = Self.liveEntry(at: id, in: state.entries) { return .found(existing) }
      var generation = state.generations[id] ?? Generation()
      generation.creations += 1
      state.generations[id] = generation
      return .creating(generation: generation.published)
    }
    let generation: Int
    switch lookup {
    case .found(let found):
      return use(
        found,
        for: key,
        saver: saver,
        initialValue: initialValue,
        site: site
      )
    case .creating(let published):
      generation = published
    }
    let created = PersistentReference(
      key: key,
      saver: saver,
      initialValue: initialValue(),
      storesReference: false,
      registration: PersistentReference.Registration(registry: self, id: id)
    )
    // NB: Started before it is published, outside the lock: loading runs the key's code,
    //     which may create other shared values.
    created.start(loading: loading)
    let publication = state.withLock { state -> Publication in
      var current = state.generations[id] ?? Generation()
      current.creations -= 1
      defer {
        let isIdle = current.creations == 0 && state.entries[id] == nil
        state.generations[id] = isIdle ? nil : current
      }
      if let existing = Self.liveEntry(at: id, in: state.entries) { return .existing(existing) }
      guard current.published == generation else { return .outdated }
      current.published += 1
      state.entries[id] = Entry(
        reference: created,
        identity: ObjectIdentifier(created),
        valueType: Value.self,
        site: site
      )
      return .published
    }
    switch publication {
    case .published:
      return created
    case .existing(let existing):
      return use(
        existing,
        for: key,
        saver: saver,
        initialValue: initialValue,
        site: site
      )
    case .outdated:
      // NB: Another reference came and went while this one loaded: load again.
      return reference(
        for: key,
        saver: saver,
        initialValue: initialValue,
        loading: loading,
        site: site
      )
    }
  }

  private enum Lookup {
    case found(LiveEntry)
    case creating(generation: Int)
  }

  private enum Publication {
    case published
    case existing(LiveEntry)
    case outdated
  }

  /// Uses the live reference of a key for another shared value, checking that both agree on
  /// the value type.
  private func use<Value: Sendable>(
    _ existing: LiveEntry,
    for key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    site: CallSite?
  ) -> PersistentReference<Value> {
    guard existing.valueType == Value.self else {
      return referenceOfItsOwn(
        for: key,
        saver: saver,
        initialValue: initialValue,
        site: site,
        existing: (existing.valueType, existing.site),
        storesReference: false
      )
    }
    // NB: Not a cast, which looks up the metadata of the generic class: an entry's reference
    //     is a 'PersistentReference' of the entry's value type.
    let reference = unsafeDowncast(existing.reference, to: PersistentReference<Value>.self)
    reference.adopt(saver: saver)
    return reference
  }

  func remove(_ id: KeyID, ifIdenticalTo identity: ObjectIdentifier) {
    state.withLock { state in
      guard let entry = state.entries[id], entry.identity == identity else { return }
      state.entries[id] = nil
      if state.generations[id]?.creations == 0 { state.generations[id] = nil }
    }
  }

  // NB: Entries are always bound before their weak reference is read: Swift 6.3 miscompiles
  //     'entries.withLock { $0[id]?.reference }' (optional chaining into a weak property of a
  //     dictionary element inside 'withLock') into a read of the wrong memory.
  private static func liveEntry(at id: KeyID, in entries: [KeyID: Entry]) -> LiveEntry? {
    guard let entry = entries[id], let reference = entry.reference else { return nil }
    return LiveEntry(reference: reference, valueType: entry.valueType, site: entry.site)
  }

  /// A reference of its own for a use of a key with another value type than the one of the
  /// key's reference, reported once per key: the later use gets a value the others do not see.
  ///
  /// - Parameters:
  ///   - existing: The value type of the key's reference, and where it was declared.
  ///   - storesReference: Whether the key's store keeps references; the reference is never
  ///     kept there, nor registered, so its writes stay its own.
  func referenceOfItsOwn<Value: Sendable>(
    for key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    site: CallSite?,
    existing: (type: Any.Type, site: CallSite?),
    storesReference: Bool
  ) -> PersistentReference<Value> {
    reportTwoValueTypes(for: key, existing: existing, used: (Value.self, site))
    let reference = PersistentReference(
      key: key,
      saver: saver,
      initialValue: initialValue(),
      storesReference: storesReference,
      registration: nil
    )
    // NB: A store that keeps references holds none of this type: there is nothing to load.
    if !storesReference { reference.start(loading: true) }
    return reference
  }

  private func reportTwoValueTypes(
    for key: any SharedReaderKey,
    existing: (type: Any.Type, site: CallSite?),
    used: (type: Any.Type, site: CallSite?)
  ) {
    let isFirst = state.withLock { $0.reported.insert(KeyID(key)).inserted }
    guard isFirst else { return }
    reportIssue(
      """
      The key \(String(reflecting: key)) is used with two value types:

        '\(existing.type)'\(existing.site.map { " at \($0)" } ?? "")
        '\(used.type)'\(used.site.map { " at \($0)" } ?? "")

      Uses of one key share one value, so they must agree on its type. The later use gets a \
      value of its own, which the others do not see.
      """
    )
  }
}

/// Where a shared value is declared.
struct CallSite: Equatable, Sendable, CustomStringConvertible {
  // NB: Kept as a 'StaticString', formatted only for a report: formatting it on every
  //     creation of a shared value allocated a string.
  let fileID: StaticString
  let line: UInt

  var description: String { "\(fileID):\(line)" }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.line == rhs.line && lhs.fileID.description == rhs.fileID.description
  }
}

extension PersistentReferences {
  /// The registry of the current dependency scope.
  static var current: PersistentReferences {
    // NB: Read from the current values, which is what '@Dependency' resolves to when it is
    //     read where it is created, without merging the values into a copy of themselves
    //     and binding that copy as a task local on every creation of a shared value.
    DependencyValues.current.persistentReferences
  }
}

extension DependencyValues {
  /// The registry of persisted references in this dependency scope.
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
