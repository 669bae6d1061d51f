public import SharingDependencies

/// The store behind ``InMemoryKey``: values that live as long as the process.
///
/// The default store is ``SharingDependencies/DependencyValues/defaultInMemoryStorage``: one store
/// for the whole program, and a fresh one for each test and preview.
public final class InMemoryStorage: Hashable, Sendable {
  private let values = Locked<[String: any Sendable]>([:])

  /// Creates an empty store.
  public init() {}

  func value(forKey key: String) -> (any Sendable)? {
    values.withLock { $0[key] }
  }

  func setValue(_ value: any Sendable, forKey key: String) {
    values.withLock { $0[key] = value }
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
