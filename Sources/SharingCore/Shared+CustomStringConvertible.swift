extension Shared: CustomStringConvertible {
  /// A description naming the value type and where the value comes from, e.g.
  /// `Shared<Int>(value: 42)` or `Shared<Int>(.appStorage("count"))`.
  public var description: String {
    "\(TypeName.of(Self.self))(\(reference.description))"
  }
}

extension SharedReader: CustomStringConvertible {
  /// A description naming the value type and where the value comes from, e.g.
  /// `SharedReader<Int>(.appStorage("count"))`.
  public var description: String {
    "\(TypeName.of(Self.self))(\(reference.description))"
  }
}
