/// A row whose JSON could not be decoded as the key's value, exposed as
/// ``/SharingCore/Shared/loadError``. The row is left as it is.
public struct PostgresDecodingError: Error, CustomStringConvertible {
  /// The row's key.
  public let key: String
  /// The version of the row that could not be decoded.
  public let version: Int64
  /// The decoder's error.
  public let underlying: any Error

  /// Names the key and the decoder's error.
  public var description: String {
    "The row of '\(key)' (version \(version)) could not be decoded: \(underlying). It is left "
      + "as it is, and kept as '\(key).corrupt-<timestamp>' before a change overwrites it."
  }
}
