extension Shared: Identifiable where Value: Identifiable {
  /// The identity of the current value.
  public var id: Value.ID { wrappedValue.id }
}

extension SharedReader: Identifiable where Value: Identifiable {
  /// The identity of the current value.
  public var id: Value.ID { wrappedValue.id }
}
