import SharingCore
public import SharingDependencies

/// The store behind ``InMemoryKey``: values that live as long as the store.
///
/// The default store is ``SharingDependencies/DependencyValues/defaultInMemoryStorage``: one store
/// for the whole program, and a fresh one for each test and preview.
public final class InMemoryStorage: Hashable, Sendable {
  // NB: The store keeps each key's shared root, not copies of its value: writes need no
  //     save, and a large value's storage is never shared with a copy kept here. A value is
  //     stored only when a key that wraps an in-memory key saves through it.
  private let entries = Locked<[String: Entry]>([:])

  private enum Entry {
    case root(AnyRootReference)
    case value(any Sendable)
  }

  /// Creates an empty store.
  public init() {}

  /// The root kept for a key, if one is.
  func root(forKey key: String) -> AnyRootReference? {
    // NB: Matched under the lock: copying the entry out copies its existential case too.
    entries.withLock { entries in
      guard case .root(let root) = entries[key] else { return nil }
      return root
    }
  }

  /// The value of a key, from its kept reference or as stored, if it is of this type.
  func value<Value: Sendable>(forKey key: String, of type: Value.Type) -> Value? {
    switch entries.withLock({ $0[key] }) {
    case .root(let root): root.value(of: Value.self)
    case .value(let value): value as? Value
    case nil: nil
    }
  }

  /// Keeps a root for a key, unless one is kept already; returns the one kept.
  func keep(_ root: AnyRootReference, forKey key: String) -> AnyRootReference {
    entries.withLock { entries in
      if case .root(let kept) = entries[key] { return kept }
      entries[key] = .root(root)
      return root
    }
  }

  func setValue(_ value: any Sendable, forKey key: String) {
    entries.withLock { $0[key] = .value(value) }
  }

  /// Whether two stores are the same store.
  public static func == (lhs: InMemoryStorage, rhs: InMemoryStorage) -> Bool {
    lhs === rhs
  }

  /// Hashes the identity of the store.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

extension DependencyValues {
  /// The store that ``SharingCore/SharedReaderKey/inMemory(_:)`` uses when a key is created: one
  /// for the whole program, and a fresh one for each test and preview.
  public var defaultInMemoryStorage: InMemoryStorage {
    get { self[DefaultInMemoryStorageKey.self] }
    set { self[DefaultInMemoryStorageKey.self] = newValue }
  }
}

private enum DefaultInMemoryStorageKey: DependencyKey {
  static let liveValue = InMemoryStorage()
  static var previewValue: InMemoryStorage { InMemoryStorage() }
  static var testValue: InMemoryStorage { InMemoryStorage() }
}
