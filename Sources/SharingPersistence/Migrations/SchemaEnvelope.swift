import Foundation

/// The stored form of a value at a schema version above 1: a JSON object whose first member
/// is the version, and whose second holds the value.
///
/// ```
/// {
///   "$version" : 3,
///   "value" : [ … ]
/// }
/// ```
///
/// The value is `"value"`, the JSON of a `Codable` key as it would be written without a
/// version; `"text"`, a string holding the bytes of a key with custom coding when they are
/// UTF-8; or `"base64"`, those bytes in base 64 otherwise. Anything else is not an
/// envelope, so it is a value stored without a version: version 1.
///
/// No synthesized `Codable` type has a `$version` key, so a value stored without a version
/// is never mistaken for an envelope.
enum SchemaEnvelope {
  /// How the value is held in the envelope.
  enum Member: String {
    case value, text, base64
  }

  /// The envelope of `payload` at `version`.
  ///
  /// - Parameter isJSON: Whether `payload` is JSON, held as it is; other bytes are held as
  ///   text or base 64. Pretty-printed JSON is indented one more level.
  static func wrap(_ payload: Data, version: Int, isJSON: Bool) -> Data {
    guard isJSON else {
      let (member, string) =
        if let text = String(validating: payload, as: UTF8.self) {
          (Member.text, text)
        } else {
          (Member.base64, payload.base64EncodedString())
        }
      // Encoding a string cannot fail.
      let literal = (try? JSONEncoder().encode(string)) ?? Data("\"\"".utf8)
      return Data("{\"$version\":\(version),\"\(member.rawValue)\":".utf8) + literal
        + Data("}".utf8)
    }
    guard payload.contains(newline) else {
      return Data("{\"$version\":\(version),\"value\":".utf8) + payload + Data("}".utf8)
    }
    var bytes = Array("{\n  \"$version\" : \(version),\n  \"value\" : ".utf8)
    bytes.reserveCapacity(bytes.count + payload.count + payload.count / 8 + 2)
    payload.withUnsafeBytes { payload in
      for index in payload.indices {
        bytes.append(payload[index])
        // JSON strings cannot hold a raw line feed, so every one is between tokens.
        // Empty lines stay empty.
        if payload[index] == newline, index + 1 < payload.count, payload[index + 1] != newline {
          bytes += [space, space]
        }
      }
    }
    bytes += [newline, UInt8(ascii: "}")]
    return Data(bytes)
  }

  /// The version and payload of an envelope, or `nil` if `data` is not one.
  static func unwrap(_ data: Data) -> (version: Int, payload: Data)? {
    guard let (version, member, range) = parse(data) else { return nil }
    let span = data[range]
    switch member {
    case .value:
      return (version, span)
    case .text:
      guard let text = try? JSONDecoder().decode(String.self, from: span) else { return nil }
      return (version, Data(text.utf8))
    case .base64:
      guard
        let string = try? JSONDecoder().decode(String.self, from: span),
        let bytes = Data(base64Encoded: string)
      else { return nil }
      return (version, bytes)
    }
  }

  /// Finds the version, the kind of value and the value's bytes, without reading the value.
  private static func parse(_ data: Data) -> (Int, Member, Range<Data.Index>)? {
    data.withUnsafeBytes { buffer -> (Int, Member, Range<Data.Index>)? in
      var scanner = Scanner(bytes: buffer)
      guard
        scanner.skip("{"), scanner.skip("\"$version\""), scanner.skip(":"),
        let version = scanner.integer(), version >= 1, scanner.skip(","),
        let name = scanner.string(), let member = Member(rawValue: name), scanner.skip(":")
      else { return nil }
      scanner.skipWhitespace()
      guard let end = scanner.lastIndex(of: "}"), scanner.index < end else { return nil }
      let range = data.startIndex + scanner.index..<data.startIndex + end
      return (version, member, range)
    }
  }

  private static let newline = UInt8(ascii: "\n")
  private static let space = UInt8(ascii: " ")

  /// Reads the few tokens that start an envelope, skipping whitespace before each.
  private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    mutating func skipWhitespace() {
      while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    /// Consumes `literal` if it comes next.
    mutating func skip(_ literal: StaticString) -> Bool {
      skipWhitespace()
      let count = literal.utf8CodeUnitCount
      guard bytes.count - index >= count else { return false }
      for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
        return false
      }
      index += count
      return true
    }

    /// Consumes a small non-negative integer.
    mutating func integer() -> Int? {
      skipWhitespace()
      var value = 0
      let start = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        guard index - start < 9 else { return nil }
        value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        index += 1
      }
      return index > start ? value : nil
    }

    /// Consumes a string without escapes.
    mutating func string() -> String? {
      guard skip("\"") else { return nil }
      let start = index
      while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
        guard bytes[index] != UInt8(ascii: "\\") else { return nil }
        index += 1
      }
      guard index < bytes.count else { return nil }
      defer { index += 1 }
      return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// The index of the last byte, which must be `character`, ignoring trailing whitespace;
    /// also ignores whitespace before it.
    func lastIndex(of character: Unicode.Scalar) -> Int? {
      var end = bytes.count
      while end > index, Self.isWhitespace(bytes[end - 1]) { end -= 1 }
      guard end > index, bytes[end - 1] == UInt8(ascii: character) else { return nil }
      end -= 1
      while end > index, Self.isWhitespace(bytes[end - 1]) { end -= 1 }
      return end
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
  }
}
