/// The values keys resolved to, per key, context and scope, each boxed with its type as an
/// override is.
final class DependencyCache: Sendable {
  static let shared = DependencyCache()

  private struct Slot: Hashable {
    let key: ObjectIdentifier
    let context: Int

    init(key: ObjectIdentifier, context: DependencyContext) {
      self.key = key
      self.context =
        switch context {
        case .live: 0
        case .preview: 1
        case .test: 2
        }
    }
  }

  /// The cached values: those resolved outside any scope (live code, previews) apart from
  /// those of each test's scope.
  private struct State {
    var unscoped: [Slot: DependencyValues.Override] = [:]
    var scoped: [DependencyValues.CacheScope: [Slot: DependencyValues.Override]] = [:]

    subscript(
      key: ObjectIdentifier,
      context: DependencyContext,
      scope: DependencyValues.CacheScope?
    ) -> DependencyValues.Override? {
      get {
        let slot = Slot(key: key, context: context)
        guard let scope else { return unscoped[slot] }
        return scoped[scope]?[slot]
      }
      set {
        let slot = Slot(key: key, context: context)
        guard let scope else { return unscoped[slot] = newValue }
        scoped[scope, default: [:]][slot] = newValue
      }
    }
  }

  private let state = Locked(State())

  /// The value `key` resolved to in `context` and `scope`, if it was resolved or prepared.
  func cachedValue(
    for key: ObjectIdentifier,
    context: DependencyContext,
    scope: DependencyValues.CacheScope?
  ) -> DependencyValues.Override? {
    state.withLock { $0[key, context, scope] }
  }

  /// Caches the value `key` resolved to, unless another thread cached one first; returns
  /// the value cached.
  func cache(
    _ value: DependencyValues.Override,
    for key: ObjectIdentifier,
    context: DependencyContext,
    scope: DependencyValues.CacheScope?
  ) -> DependencyValues.Override {
    state.withLock { state in
      if let existing = state[key, context, scope] { return existing }
      state[key, context, scope] = value
      return value
    }
  }

  /// The value of `key` in `context`, from the key itself.
  static func resolve<Key: TestDependencyKey>(
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
