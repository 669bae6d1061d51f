import SharingDependencies
import Synchronization

/// The persisted references alive in a dependency scope, one per key identity.
///
/// Live code shares one registry; each test gets its own through the dependency system,
/// so tests never see each other's shared values.
package final class PersistentReferences: Sendable {
  private struct Entry {
    weak var reference: AnyObject?
    let identity: ObjectIdentifier
  }

  private let entries = Mutex<[KeyID: Entry]>([:])

  package init() {}

  /// Returns the reference for a key, creating, loading and subscribing it if needed.
  func reference<Value: Sendable>(
    for key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    loading: Bool = true
  ) -> PersistentReference<Value> {
    let id = KeyID(key)
    if let existing = existingReference(id, of: Value.self) {
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
    let winner = entries.withLock { entries -> AnyObject in
      if let entry = entries[id], let existing = entry.reference { return existing }
      entries[id] = Entry(reference: created, identity: ObjectIdentifier(created))
      return created
    }
    guard let winner = winner as? PersistentReference<Value> else {
      return mismatchedReference(for: key, saver: saver, initialValue: created.initialValue)
    }
    winner.adopt(saver: saver)
    return winner
  }

  func remove(_ id: KeyID, ifIdenticalTo identity: ObjectIdentifier) {
    entries.withLock { entries in
      if entries[id]?.identity == identity { entries[id] = nil }
    }
  }

  private func existingReference<Value>(
    _ id: KeyID,
    of type: Value.Type
  ) -> PersistentReference<Value>? {
    // NB: The entry is bound before its weak reference is loaded: Swift 6.3 miscompiles
    //     'entries[id]?.reference' inside 'Mutex.withLock' into a load from a null pointer.
    let existing = entries.withLock { entries -> AnyObject? in
      guard let entry = entries[id] else { return nil }
      return entry.reference
    }
    guard let existing else { return nil }
    return existing as? PersistentReference<Value>
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

  init(_ key: some SharedReaderKey) {
    self.base = AnyHashable(key.id)
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
