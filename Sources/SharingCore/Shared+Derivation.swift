extension Shared {
  /// Derives a shared value for a part of this value.
  ///
  /// ```swift
  /// PhoneNumberModel(phoneNumber: $signUpData.phoneNumber)  // Shared<String>
  /// ```
  ///
  /// A write through the derived value is seen at once by this value and everything else
  /// derived from it. The derived value keeps the reference this value uses now: assigning
  /// this value's projected value later does not re-point it.
  public subscript<Member>(
    dynamicMember keyPath: WritableKeyPath<Value, Member>
  ) -> Shared<Member> {
    Shared<Member>(reference: reference.appending(keyPath))
  }

  /// Derives a read-only shared value for a read-only part of this value.
  public subscript<Member>(
    dynamicMember keyPath: KeyPath<Value, Member>
  ) -> SharedReader<Member> {
    SharedReader(reference: reference)[dynamicMember: keyPath]
  }

  /// Unwraps a shared optional value.
  ///
  /// ```swift
  /// if let user = Shared($currentUser) {
  ///   user  // Shared<User>
  /// }
  /// ```
  ///
  /// If the base later becomes `nil`, the unwrapped value keeps its last value and drops
  /// writes.
  ///
  /// - Parameter base: A shared optional value.
  /// - Returns: `nil` if the base is currently `nil`.
  public init?(_ base: Shared<Value?>) {
    guard let initialValue = base.wrappedValue else { return nil }
    self.init(
      reference: ProjectionReference(unwrapping: base.reference, initialValue: initialValue)
    )
  }

  /// Derives a read-only shared value computed from this value.
  ///
  /// ```swift
  /// let isEmpty = $todos.read { $0.isEmpty }  // SharedReader<Bool>
  /// ```
  ///
  /// - Parameter transform: A function from this value to the derived value.
  /// - Returns: A reader whose value is `transform` applied to this value.
  public func read<Member>(
    _ transform: @escaping @Sendable (Value) -> Member
  ) -> SharedReader<Member> {
    SharedReader(reference: reference).read(transform)
  }
}
