import Foundation

/// Property lists parsed by Foundation from bytes that may be corrupt.
enum PropertyListBytes {
  /// The property list `bytes` hold, or `nil` if they hold none.
  static func parsed(_ bytes: Data) -> Any? {
    guard isSafeToParse(bytes) else { return nil }
    return try? PropertyListSerialization.propertyList(from: bytes, format: nil)
  }

  /// Whether Foundation can be given `bytes` to parse: they are not in Apple's binary
  /// format, or its trailer finds their objects and none of them is a set.
  ///
  /// On Linux, Foundation's parser reads a set (marker `0xC`, which no user defaults value
  /// holds) even when its members cannot be read, and stops the program while handing it
  /// over to Swift: one corrupt byte of a stored archive is enough.
  private static func isSafeToParse(_ data: Data) -> Bool {
    guard data.starts(with: "bplist".utf8) else { return true }
    let bytes = [UInt8](data)
    // The trailer: the size of an offset at byte 6, the number of objects at 8 and where
    // their offsets start at 24, each 8 bytes big-endian.
    let trailer = bytes.count - 32
    func integer(at start: Int, size: Int) -> Int? {
      guard (1...8).contains(size), start >= 0, start <= bytes.count - size else { return nil }
      return bytes[start..<(start + size)].reduce(0) { $0 << 8 | Int($1) }
    }
    guard trailer > 8, let count = integer(at: trailer + 8, size: 8),
      let table = integer(at: trailer + 24, size: 8), count >= 0, table >= 0
    else { return false }
    let offsetSize = Int(bytes[trailer + 6])
    for object in 0..<count {
      guard let offset = integer(at: table + object * offsetSize, size: offsetSize),
        offset < trailer
      else { return false }
      if bytes[offset] >> 4 == 0xC { return false }
    }
    return true
  }
}
