/// Compares two type-erased values with their `Equatable` conformance.
enum AnyEquality {
  /// Whether the values are equal, or `nil` when the first is not `Equatable`.
  ///
  /// A second value of another type is unequal.
  static func areEqual(_ first: Any, _ second: Any) -> Bool? {
    guard let first = first as? any Equatable else { return nil }
    return isEqual(first, second)
  }

  private static func isEqual<T: Equatable>(_ first: T, _ second: Any) -> Bool {
    guard let second = second as? T else { return false }
    return first == second
  }
}
