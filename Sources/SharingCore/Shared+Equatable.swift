extension Shared: Equatable where Value: Equatable {
  /// Compares the values of two shared values.
  ///
  /// Inside a change tracker's assertion the left-hand side is the expected value, read from
  /// its snapshot, and the right-hand side the actual, current value.
  public static func == (lhs: Shared, rhs: Shared) -> Bool {
    guard SharedTracking.isActive, SharedTracking.asserting != nil else {
      return lhs.wrappedValue == rhs.wrappedValue
    }
    let expected = lhs.wrappedValue
    let actual = ChangeTracker.withoutAsserting { rhs.wrappedValue }
    return expected == actual
  }
}

extension SharedReader: Equatable where Value: Equatable {
  /// Compares the values of two readers; see ``Shared/==(_:_:)``.
  public static func == (lhs: SharedReader, rhs: SharedReader) -> Bool {
    guard SharedTracking.isActive, SharedTracking.asserting != nil else {
      return lhs.wrappedValue == rhs.wrappedValue
    }
    let expected = lhs.wrappedValue
    let actual = ChangeTracker.withoutAsserting { rhs.wrappedValue }
    return expected == actual
  }
}
