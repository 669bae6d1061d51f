extension Shared: CustomStringConvertible {
  /// A description naming the value type and where the value comes from, e.g.
  /// `Shared<Int>(value: 42)` or `Shared<Int>(.appStorage("count"))`.
  public var description: String {
    "Shared<\(String(reflecting: Value.self))>(\(reference.resolved.description))"
  }
}

extension SharedReader: CustomStringConvertible {
  /// A description naming the value type and where the value comes from.
  public var description: String {
    "SharedReader<\(String(reflecting: Value.self))>(\(reference.resolved.description))"
  }
}
