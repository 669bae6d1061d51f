/// The values keys resolved to, per key, context and scope.
final class DependencyCache: Sendable {
  static let shared = DependencyCache()

  private struct Slot: Hashable {
    let key: ObjectIdentifier
    let context: DependencyContext
    let scope: DependencyValues.CacheScope?
  }

  private struct Entry {
    let value: any Sendable
    let isPrepared: Bool
  }

  private let entries = Locked<[Slot: Entry]>([:])

  func value<Key: TestDependencyKey>(
    for key: Key.Type,
    context: DependencyContext,
    scope: DependencyValues.CacheScope?
  ) -> Key.Value {
    let slot = Slot(key: ObjectIdentifier(key), context: context, scope: scope)
    // NB: The entry is unwrapped before the cast: 'nil as? Key.Value' succeeds when the value
    //     is itself optional.
    if let cached = entries.withLock({ $0[slot]?.value }), let value = cached as? Key.Value {
      return value
    }
    // NB: Resolved outside the lock: a default value may read other dependencies.
    let resolved = Self.resolve(key, in: context)
    let winner = entries.withLock { entries in
      if let existing = entries[slot] { return existing.value }
      entries[slot] = Entry(value: resolved, isPrepared: false)
      return resolved
    }
    return winner as? Key.Value ?? resolved
  }

  /// Stores a prepared value; returns `false` if the key was already read or prepared.
  func prepare(
    _ value: any Sendable,
    for key: ObjectIdentifier,
    context: DependencyContext,
    scope: DependencyValues.CacheScope?
  ) -> Bool {
    let slot = Slot(key: key, context: context, scope: scope)
    return entries.withLock { entries in
      guard entries[slot] == nil else { return false }
      entries[slot] = Entry(value: value, isPrepared: true)
      return true
    }
  }

  private static func resolve<Key: TestDependencyKey>(
    _ key: Key.Type,
    in context: DependencyContext
  ) -> Key.Value {
    switch context {
    case .test:
      return Key.testValue
    case .preview:
      return Key.previewValue
    case .live:
      if let live = key as? any DependencyKey.Type, let value = liveValue(of: live) as? Key.Value {
        return value
      }
      reportIssue(
        """
        A dependency has no live implementation, but was read from a live context:

          Key: \(String(reflecting: Key.self))
          Value: \(String(reflecting: Key.Value.self))

        Conform the key to 'DependencyKey' and give it a 'liveValue'. Its test value is used \
        instead.
        """
      )
      return Key.testValue
    }
  }

  private static func liveValue<Key: DependencyKey>(of key: Key.Type) -> any Sendable {
    key.liveValue
  }
}
