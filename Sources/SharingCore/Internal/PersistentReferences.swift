import SharingDependencies

/// The persisted references alive in a dependency scope, one per key identity.
///
/// Live code shares one registry; each test gets its own through the dependency system,
/// so tests never see each other's shared values.
package final class PersistentReferences: Sendable {
  private struct Entry {
    weak var reference: AnyObject?
    var identity: ObjectIdentifier?
    /// The number of references published for the key: a reference created while another
    /// was published (and perhaps released again) may have loaded a value older than that
    /// one's last save, and must not be published.
    var generation = 0
    /// Creations in progress, which keep the entry, and so the generation, alive.
    var creations = 0
  }

  // NB: Entries are always bound before their weak reference is read: Swift 6.3 miscompiles
  //     'entries.withLock { $0[id]?.reference }' (optional chaining into a weak property of a
  //     dictionary element inside 'withLock') into a read of the wrong memory.
  private static func reference(at id: KeyID, in entries: [KeyID: Entry]) -> AnyObject? {
    guard let entry = entries[id] else { return nil }
    return entry.reference
  }

  private let entries = Locked<[KeyID: Entry]>([:])

  package init() {}

  /// Returns the reference for a key, creating, loading and subscribing it if needed.
  func reference<Value: Sendable>(
    for key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    loading: Bool = true
  ) -> PersistentReference<Value> {
    let id = KeyID(key)
    let (existing, generation) = entries.withLock { entries -> (AnyObject?, Int) in
      if let existing = Self.reference(at: id, in: entries) { return (existing, 0) }
      var entry = entries[id] ?? Entry()
      entry.creations += 1
      entries[id] = entry
      return (nil, entry.generation)
    }
    if let existing {
      guard let existing = existing as? PersistentReference<Value> else {
        return mismatchedReference(for: key, saver: saver, initialValue: initialValue())
      }
      existing.adopt(saver: saver)
      return existing
    }
    let created = PersistentReference(
      key: key,
      saver: saver,
      initialValue: initialValue(),
      registration: PersistentReference.Registration(registry: self, id: id)
    )
    // NB: Started before it is published, outside the lock: loading runs the key's code,
    //     which may create other shared values.
    created.start(loading: loading)
    let winner = entries.withLock { entries -> AnyObject? in
      guard var entry = entries[id] else { return nil }
      entry.creations -= 1
      defer { entries[id] = entry }
      if let existing = entry.reference { return existing }
      guard entry.generation == generation else { return nil }
      entry.reference = created
      entry.identity = ObjectIdentifier(created)
      entry.generation += 1
      return created
    }
    guard let winner else {
      // NB: Another reference came and went while this one loaded: load again.
      return reference(for: key, saver: saver, initialValue: initialValue, loading: loading)
    }
    guard let winner = winner as? PersistentReference<Value> else {
      return mismatchedReference(for: key, saver: saver, initialValue: created.initialValue)
    }
    winner.adopt(saver: saver)
    return winner
  }

  func remove(_ id: KeyID, ifIdenticalTo identity: ObjectIdentifier) {
    entries.withLock { entries in
      guard var entry = entries[id], entry.identity == identity else { return }
      guard entry.creations > 0 else { return entries[id] = nil }
      entry.reference = nil
      entry.identity = nil
      entries[id] = entry
    }
  }

  private func mismatchedReference<Value: Sendable>(
    for key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: Value
  ) -> PersistentReference<Value> {
    reportIssue(
      """
      The key \(String(reflecting: key)) is used with two different value types; this use, \
      of type '\(Value.self)', gets a reference of its own that other uses do not share.
      """
    )
    let reference = PersistentReference(
      key: key,
      saver: saver,
      initialValue: initialValue,
      registration: nil
    )
    reference.start(loading: true)
    return reference
  }
}

/// The identity of a key, as a dictionary key.
struct KeyID: Hashable, @unchecked Sendable {
  // NB: Unchecked: wraps a key's 'id'; keys are 'Sendable', and so are the identities they
  //     compute in practice ('Hashable' does not imply 'Sendable' in the protocol).
  private let base: AnyHashable
  private let hash: Int

  init(_ key: some SharedReaderKey) {
    self.base = AnyHashable(key.id)
    self.hash = base.hashValue
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    // NB: Hashes first: a dictionary compares the identity it looks up with the identity in
    //     every bucket it probes, and comparing two 'AnyHashable's looks up generic metadata;
    //     identities that differ almost always differ in hash. Equal values have equal
    //     hashes, so the result is that of 'AnyHashable' equality.
    lhs.hash == rhs.hash && lhs.base == rhs.base
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
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
