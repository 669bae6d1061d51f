/// The buckets that keys fall in for notifications: a change of a key is notified on its
/// bucket's channel, and a process listens only to the buckets of the keys it watches, so
/// that it hears about a thousandth of the changes to keys it does not watch.
///
/// A key's bucket is the low ten bits of the first four bytes of the MD5 digest of its UTF-8
/// bytes, read as a big-endian number: the server computes it in SQL
/// (``TableSQL/bucket(of:)``), and this package in Swift.
enum KeyBuckets {
  static let count = 1_024

  /// The bucket of `key`, from 0 to ``count`` − 1.
  static func bucket(of key: String) -> Int {
    let digest = MD5.digest(key.utf8)
    let leading = Int(digest[0]) << 24 | Int(digest[1]) << 16 | Int(digest[2]) << 8 | Int(digest[3])
    return leading & (count - 1)
  }
}
