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
  /// What the store holds for each key; ``InMemoryKeyID`` reads and keeps it.
  let entries = Locked<[String: Entry]>([:])

  /// What the store holds for a key: its shared root, or a value a wrapping key saved.
  enum Entry {
    case root(AnyRootReference)
    case value(any Sendable)
  }

  /// Creates an empty store.
  public init() {}

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
