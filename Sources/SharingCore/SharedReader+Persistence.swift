extension SharedReader where Value: Sendable {
  /// Creates a reader of a value loaded, and kept up to date, by a key.
  ///
  /// - Parameters:
  ///   - wrappedValue: The default value.
  ///   - key: The key that loads and observes the stored value.
  ///   - fileID: The file of the declaration, named in reports of inconsistent key use.
  ///   - line: The line of the declaration.
  @inlinable
  public init(
    wrappedValue: @autoclosure () -> Value,
    _ key: some SharedReaderKey<Value>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    if let root = key._referenceStore?.keptRoot(of: Value.self) {
      self.init(reference: root)
    } else {
      self.init(persistedBy: key, initialValue: wrappedValue, fileID: fileID, line: line)
    }
  }

  /// Creates a reader of an optional value loaded by a key, `nil` by default.
  ///
  /// - Parameters:
  ///   - key: The key that loads and observes the stored value.
  ///   - fileID: The file of the declaration, named in reports of inconsistent key use.
  ///   - line: The line of the declaration.
  // NB: Disfavoured, as in swift-sharing, so that an optional key with a default
  //     ('SharedKey.Default', `default: nil`) picks the initialiser taking that key.
  @_disfavoredOverload
  public init<Wrapped>(
    _ key: some SharedReaderKey<Value>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where Value == Wrapped? {
    self.init(persistedBy: key, initialValue: { nil }, fileID: fileID, line: line)
  }

  /// Unavailable: a non-optional reader needs a default.
  @available(
    *,
    unavailable,
    message: "Assign a default value, or use a key with a default ('SharedReaderKey.Default')."
  )
  public init(_ key: some SharedReaderKey<Value>) {
    fatalError()
  }

  /// Creates a reader from a key that carries its default.
  ///
  /// - Parameters:
  ///   - key: A key paired with its default value.
  ///   - fileID: The file of the declaration, named in reports of inconsistent key use.
  ///   - line: The line of the declaration.
  public init<Key: SharedReaderKey<Value>>(
    _ key: _SharedKeyDefault<Key>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(persistedBy: key, initialValue: key.defaultValue, fileID: fileID, line: line)
  }

  /// Creates a reader from a key that carries a default, overriding it.
  ///
  /// - Parameters:
  ///   - wrappedValue: The default value to use instead of the key's.
  ///   - key: A key paired with its default value.
  ///   - fileID: The file of the declaration, named in reports of inconsistent key use.
  ///   - line: The line of the declaration.
  public init<Key: SharedReaderKey<Value>>(
    wrappedValue: @autoclosure () -> Value,
    _ key: _SharedKeyDefault<Key>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(persistedBy: key, initialValue: wrappedValue, fileID: fileID, line: line)
  }

  /// A reader of the value `key` persists, declared at `fileID`:`line` with `initialValue`
  /// as its default.
  @usableFromInline
  init(
    persistedBy key: any SharedReaderKey<Value>,
    initialValue: () -> Value,
    fileID: StaticString,
    line: UInt
  ) {
    let root = RootReference.persisted(
      by: key,
      saver: nil,
      initialValue: initialValue,
      site: CallSite(fileID: fileID, line: line)
    )
    self.init(reference: root)
  }

  /// Creates a reader from a key whose store must have a value.
  ///
  /// - Parameter key: The key to load.
  /// - Throws: ``SharedValueNotFoundError`` if the store has no value, or the error the key
  ///   failed to load with.
  public init(require key: some SharedReaderKey<Value>) async throws {
    try await self.init(requiring: key)
  }

  init(requiring key: any SharedReaderKey<Value>) async throws {
    let value = try await requireValue(for: key)
    self.init(reference: RootReference.persisted(by: key, saver: nil, holding: value))
  }

  /// Makes this reader, and every copy of it, use another key, then loads it.
  ///
  /// - Parameter key: The key to use from now on.
  public func load(_ key: some SharedReaderKey<Value>) async throws {
    try await move(to: key)
  }

  func move(to key: any SharedReaderKey<Value>) async throws {
    let value = wrappedValue
    box.repoint(to: RootReference.persisted(by: key, saver: nil, holding: value))
    try await load()
  }

}

extension SharedReader {
  /// Whether the value is being loaded from its store.
  public var isLoading: Bool { reference.root.anyPersistence?.isLoading ?? false }

  /// The error the store last failed to load with, if the latest load failed.
  public var loadError: (any Error)? { reference.root.anyPersistence?.loadError }

  /// Reloads the value from its store.
  ///
  /// - Throws: The error the key failed to load with, also exposed as ``loadError``.
  public func load() async throws {
    try await reference.root.anyPersistence?.load()
  }
}
