// Overloads of the 'SharedReaderKey' initialisers for keys declared in an extension of 'SharedKey'
// ('extension SharedKey where Self == …'), whose static members an implicit member expression typed
// 'some SharedReaderKey' does not find: swift-sharing has them.
extension SharedReader where Value: Sendable {
  /// Creates a reader of a value loaded, and kept up to date, by a writable key.
  ///
  /// ```swift
  /// @SharedReader(.count) var count = 0  // 'count' declared in 'extension SharedKey'
  /// ```
  ///
  /// - Parameters:
  ///   - wrappedValue: The default value.
  ///   - key: The key that loads and observes the stored value.
  ///   - fileID: The file of the declaration, named in reports of inconsistent key use.
  ///   - line: The line of the declaration.
  // NB: Disfavoured: a key found through 'SharedReaderKey' too, or one with a default,
  //     picks the initialiser for that key.
  @_disfavoredOverload
  public init(
    wrappedValue: @autoclosure () -> Value,
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(persistedBy: key, initialValue: wrappedValue, fileID: fileID, line: line)
  }

  /// Creates a reader of an optional value loaded by a writable key, `nil` by default.
  ///
  /// - Parameters:
  ///   - key: The key that loads and observes the stored value.
  ///   - fileID: The file of the declaration, named in reports of inconsistent key use.
  ///   - line: The line of the declaration.
  @_disfavoredOverload
  public init<Wrapped>(
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where Value == Wrapped? {
    self.init(wrappedValue: nil, key, fileID: fileID, line: line)
  }

  /// Unavailable: a non-optional reader needs a default.
  @available(
    *,
    unavailable,
    message: "Assign a default value, or use a key with a default ('SharedKey.Default')."
  )
  public init(_ key: some SharedKey<Value>) {
    fatalError()
  }

  /// Creates a reader from a writable key whose store must have a value.
  ///
  /// - Parameter key: The key to load.
  /// - Throws: ``SharedValueNotFoundError`` if the store has no value, or the error the key
  ///   failed to load with.
  public init(require key: some SharedKey<Value>) async throws {
    try await self.init(requiring: key)
  }

  /// Makes this reader, and every copy of it, use another key, then loads it.
  ///
  /// - Parameter key: The key to use from now on.
  public func load(_ key: some SharedKey<Value>) async throws {
    try await move(to: key)
  }
}
