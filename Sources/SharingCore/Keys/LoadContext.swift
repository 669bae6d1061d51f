/// The reason a value is loaded from a ``SharedReaderKey``.
public enum LoadContext<Value> {
  /// The value is loaded because a shared value was created with this default.
  case initialValue(Value)

  /// The value is loaded because ``SharedReader/load()`` or ``Shared/load()`` was called.
  case userInitiated

  /// The default value the shared value was created with, if any.
  public var initialValue: Value? {
    guard case .initialValue(let value) = self else { return nil }
    return value
  }
}

extension LoadContext: Sendable where Value: Sendable {}
