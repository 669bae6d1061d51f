extension Shared: CustomReflectable {
  /// A mirror of the current value, so that dumps and debuggers show shared state as its
  /// value.
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue) }
}

extension SharedReader: CustomReflectable {
  /// A mirror of the current value.
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue) }
}
