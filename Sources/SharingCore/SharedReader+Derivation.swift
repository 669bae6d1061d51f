extension SharedReader {
  /// Derives a reader for a part of this value.
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader<Member>(reference: ProjectionReference(base: reference, keyPath: keyPath))
  }

  /// Unwraps an optional reader.
  ///
  /// - Parameter base: A reader of an optional value.
  /// - Returns: `nil` if the base is currently `nil`.
  public init?(_ base: SharedReader<Value?>) {
    guard let initialValue = base.wrappedValue else { return nil }
    self.init(
      reference: ProjectionReference(unwrapping: base.reference, initialValue: initialValue)
    )
  }

  /// Derives a reader computed from this value.
  ///
  /// ```swift
  /// let count = $todos.read { $0.count }  // SharedReader<Int>
  /// ```
  ///
  /// - Parameter transform: A function from this value to the derived value.
  /// - Returns: A reader whose value is `transform` applied to this value.
  public func read<Member>(
    _ transform: @escaping @Sendable (Value) -> Member
  ) -> SharedReader<Member> {
    SharedReader<Member>(
      reference: ProjectionReference(base: reference, name: { "read" }, transform: transform)
    )
  }
}
