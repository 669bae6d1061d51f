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
  enum Member: String, CaseIterable {
    case value, text, base64
  }

  /// The envelope of `payload` at `version`.
  ///
  /// - Parameter isJSON: Whether `payload` is JSON, held as it is; other bytes are held as
  ///   text or base 64. Pretty-printed JSON is indented one more level.
  static func wrap(_ payload: Data, version: Int, isJSON: Bool) -> Data {
    /// The envelope on one line, `json` held in `member`.
    func compact(_ member: Member, _ json: Data) -> Data {
      Data("{\"$version\":\(version),\"\(member.rawValue)\":".utf8) + json + Data("}".utf8)
    }
    guard isJSON else {
      let text = String(validating: payload, as: UTF8.self)
      // Encoding a string cannot fail.
      let literal = (try? JSONEncoder().encode(text ?? payload.base64EncodedString()))
      return compact(text == nil ? .base64 : .text, literal ?? Data("\"\"".utf8))
    }
    guard payload.contains(newline) else { return compact(.value, payload) }
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
  ///
  /// Reads the tokens that start an envelope and the brace that ends it, whitespace allowed
  /// around each, without reading the value.
  static func unwrap(_ data: Data) -> (version: Int, payload: Data)? {
    var rest = data
    // Consumes `literal` if it comes next, after whitespace.
    func skip(_ literal: String) -> Bool {
      rest = rest.drop(while: isWhitespace)
      guard rest.starts(with: literal.utf8) else { return false }
      rest = rest.dropFirst(literal.utf8.count)
      return true
    }
    guard skip("{"), skip("\"$version\""), skip(":") else { return nil }
    let digits = rest.drop(while: isWhitespace).prefix(while: { (0x30...0x39).contains($0) })
    guard (1...9).contains(digits.count),
      let version = Int(String(decoding: digits, as: UTF8.self)),
      version >= 1
    else { return nil }
    rest = rest.drop(while: isWhitespace).dropFirst(digits.count)
    guard skip(","), let member = Member.allCases.first(where: { skip("\"\($0.rawValue)\"") }),
      skip(":"),
      let close = rest.lastIndex(where: { !isWhitespace($0) }), rest[close] == UInt8(ascii: "}"),
      let last = rest[..<close].lastIndex(where: { !isWhitespace($0) })
    else { return nil }
    let span = rest.drop(while: isWhitespace)[...last]
    if member == .value { return (version, span) }
    guard let string = try? JSONDecoder().decode(String.self, from: span),
      let bytes = member == .text ? Data(string.utf8) : Data(base64Encoded: string)
    else { return nil }
    return (version, bytes)
  }

  private static let newline = UInt8(ascii: "\n")
  private static let space = UInt8(ascii: " ")

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
