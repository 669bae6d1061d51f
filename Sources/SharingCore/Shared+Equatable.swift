extension Shared: Equatable where Value: Equatable {
  /// Compares the values of two shared values.
  ///
  /// Inside a change tracker's assertion the left-hand side is the expected value, read from
  /// its snapshot, and the right-hand side the actual, current value.
  public static func == (lhs: Shared, rhs: Shared) -> Bool {
    lhs.box.hasValue(equalTo: rhs.box)
  }
}

extension SharedReader: Equatable where Value: Equatable {
  /// Compares the values of two readers; see ``Shared/==(_:_:)``.
  public static func == (lhs: SharedReader, rhs: SharedReader) -> Bool {
    lhs.box.hasValue(equalTo: rhs.box)
  }
}

extension SharedBox where Value: Equatable {
  /// Whether this box's value, the expected one, equals `actual`'s: inside a change tracker's
  /// assertion, the expected value is read from its snapshot, and the actual one is current.
  fileprivate func hasValue(equalTo actual: SharedBox) -> Bool {
    guard SharedTracking.isActive, SharedTracking.asserting != nil else {
      return read() == actual.read()
    }
    let expected = read()
    return expected == ChangeTracker.withoutAsserting { actual.read() }
  }
}
