extension Shared where Value: Sendable {
  /// Creates a shared value persisted by a key.
  ///
  /// ```swift
  /// @Shared(.fileStorage(.todosURL)) var todos: [Todo] = []
  /// ```
  ///
  /// Every shared value created from a key with the same identity shares one reference; the
  /// default is evaluated only when no reference exists yet, and used only when the store has
  /// no value. A later declaration may give another default: the first live holder's wins.
  ///
  /// - Parameters:
  ///   - wrappedValue: The default value.
  ///   - key: The key that loads, saves and observes the stored value.
  ///   - fileID: The file of the declaration, named in reports of inconsistent key use.
  ///   - line: The line of the declaration.
  @inlinable
  public init(
    wrappedValue: @autoclosure () -> Value,
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    if let root = key._referenceStore?.keptRoot(of: Value.self) {
      self.init(reference: root)
    } else {
      self.init(persistedBy: key, initialValue: wrappedValue, fileID: fileID, line: line)
    }
  }

  /// Creates a shared optional value persisted by a key, `nil` by default.
  ///
  /// - Parameters:
  ///   - key: The key that loads, saves and observes the stored value.
  ///   - fileID: The file of the declaration, named in reports of inconsistent key use.
  ///   - line: The line of the declaration.
  // NB: Disfavoured, as in swift-sharing, so that an optional key with a default
  //     ('SharedKey.Default', `default: nil`) picks the initialiser taking that key.
  @_disfavoredOverload
  public init<Wrapped>(
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where Value == Wrapped? {
    self.init(persistedBy: key, initialValue: { nil }, fileID: fileID, line: line)
  }

  /// Unavailable: a non-optional shared value needs a default.
  @available(
    *,
    unavailable,
    message: "Assign a default value, or use a key with a default ('SharedKey.Default')."
  )
  public init(_ key: some SharedKey<Value>) {
    fatalError()
  }

  /// Creates a shared value persisted by a key that carries its default.
  ///
  /// ```swift
  /// @Shared(.isHapticsEnabled) var isHapticsEnabled
  /// ```
  ///
  /// - Parameters:
  ///   - key: A key paired with its default value.
  ///   - fileID: The file of the declaration, named in reports of inconsistent key use.
  ///   - line: The line of the declaration.
  public init<Key: SharedKey<Value>>(
    _ key: _SharedKeyDefault<Key>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(persistedBy: key, initialValue: key.defaultValue, fileID: fileID, line: line)
  }

  /// Creates a shared value persisted by a key that carries a default, overriding it.
  ///
  /// - Parameters:
  ///   - wrappedValue: The default value to use instead of the key's.
  ///   - key: A key paired with its default value.
  ///   - fileID: The file of the declaration, named in reports of inconsistent key use.
  ///   - line: The line of the declaration.
  public init<Key: SharedKey<Value>>(
    wrappedValue: @autoclosure () -> Value,
    _ key: _SharedKeyDefault<Key>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(persistedBy: key, initialValue: wrappedValue, fileID: fileID, line: line)
  }

  /// A shared value persisted by `key`, declared at `fileID`:`line` with `initialValue` as
  /// its default.
  @usableFromInline
  init(
    persistedBy key: any SharedKey<Value>,
    initialValue: () -> Value,
    fileID: StaticString,
    line: UInt
  ) {
    let root = RootReference.persisted(
      by: key,
      saver: key,
      initialValue: initialValue,
      site: CallSite(fileID: fileID, line: line)
    )
    self.init(reference: root)
  }

  /// Creates a shared value from a key whose store must have a value.
  ///
  /// ```swift
  /// let user = try await Shared(require: .fileStorage(.currentUser))
  /// ```
  ///
  /// - Parameter key: The key to load.
  /// - Throws: ``SharedValueNotFoundError`` if the store has no value, or the error the key
  ///   failed to load with.
  public init(require key: some SharedKey<Value>) async throws {
    let value = try await requireValue(for: key)
    self.init(reference: RootReference.persisted(by: key, saver: key, holding: value))
  }

  /// Makes this shared value, and every copy of it, use another key, then loads it.
  ///
  /// - Parameter key: The key to use from now on.
  public func load(_ key: some SharedKey<Value>) async throws {
    let value = wrappedValue
    box.repoint(to: RootReference.persisted(by: key, saver: key, holding: value))
    try await load()
  }

}

extension Shared {
  /// Whether the value is being loaded from its store.
  public var isLoading: Bool { reference.root.anyPersistence?.isLoading ?? false }

  /// The error the store last failed to load with, if the latest load failed.
  public var loadError: (any Error)? { reference.root.anyPersistence?.loadError }

  /// The error the store last failed to save with, if the latest save failed.
  public var saveError: (any Error)? { reference.root.anyPersistence?.saveError }

  /// Reloads the value from its store.
  ///
  /// - Throws: The error the key failed to load with, also exposed as ``loadError``.
  public func load() async throws {
    try await reference.root.anyPersistence?.load()
  }

  /// Saves the value to its store now, bypassing any throttling.
  ///
  /// - Throws: The error the key failed to save with, also exposed as ``saveError``.
  public func save() async throws {
    try await reference.root.anyPersistence?.save()
  }
}
