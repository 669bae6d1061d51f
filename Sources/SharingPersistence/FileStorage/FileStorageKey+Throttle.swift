public import Foundation
public import SharingCore

extension SharedReaderKey {
  /// A key that persists a `Codable` value to a file as JSON, with its own interval between
  /// writes.
  ///
  /// ```swift
  /// // Every change is on disk before 'withLock' returns.
  /// @Shared(.fileStorage(.ledger, throttle: .zero)) var ledger: [Entry] = []
  ///
  /// // At most one write every five seconds while the cursor moves.
  /// @Shared(.fileStorage(.cursor, throttle: .seconds(5))) var cursor = Cursor()
  /// ```
  ///
  /// The first change after a quiet period is written at once, and the latest value is
  /// always written. With a zero interval, each change is written by the thread that made
  /// it, before `withLock` returns. An interval too long to wait for (centuries) writes
  /// later changes only when they are flushed or the program exits. See <doc:Durability>.
  ///
  /// - Parameters:
  ///   - url: The file to persist the value to.
  ///   - throttle: The least time between two writes after changes; zero writes every
  ///     change through.
  ///   - decoder: The decoder that reads the file.
  ///   - encoder: The encoder that writes the file; by default pretty-printed JSON with
  ///     sorted keys.
  /// - Returns: A file storage key.
  public static func fileStorage<Value: Codable>(
    _ url: URL,
    throttle: Duration,
    decoder: JSONDecoder = JSONDecoder(),
    encoder: JSONEncoder = defaultFileStorageEncoder()
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(
      url: url,
      format: .json(decoder: decoder, encoder: encoder),
      throttle: throttle
    )
  }

  /// A key that persists any value to a file with custom coding, with its own interval
  /// between writes.
  ///
  /// - Parameters:
  ///   - url: The file to persist the value to.
  ///   - throttle: The least time between two writes after changes; zero writes every
  ///     change through.
  ///   - decode: Makes a value from the bytes of the file.
  ///   - encode: Makes the bytes of the file from a value.
  /// - Returns: A file storage key.
  public static func fileStorage<Value>(
    _ url: URL,
    throttle: Duration,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(
      url: url,
      format: StoredFormat(isJSON: false, decode: decode, encode: encode),
      throttle: throttle
    )
  }
}
