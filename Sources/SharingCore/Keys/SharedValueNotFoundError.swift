/// The error thrown by `Shared(require:)` and `SharedReader(require:)` when the store has no
/// value for the key.
public struct SharedValueNotFoundError: Error, CustomStringConvertible {
  /// A description of the key that had no value.
  public let key: String

  /// A description of the error, naming the key.
  public var description: String { "No value is stored for \(key)." }
}

/// Loads a key's value for `require:` initialisers, failing when the store has none.
func requireValue<Value: Sendable>(for key: some SharedReaderKey<Value>) async throws -> Value {
  try await withCheckedThrowingContinuation { waiter in
    key.load(
      context: .userInitiated,
      continuation: LoadContinuation(String(describing: key)) { result in
        switch result {
        case .success(let value?):
          waiter.resume(returning: value)
        case .success(nil):
          waiter.resume(throwing: SharedValueNotFoundError(key: String(reflecting: key)))
        case .failure(let error):
          waiter.resume(throwing: error)
        }
      }
    )
  }
}
