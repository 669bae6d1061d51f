import Foundation

/// The top-level keys of a property list in the XML format Foundation writes, each with a
/// hash of its value's bytes, found without parsing the values: what tells which keys a
/// write of the file changed.
enum PropertyListKeys {
  /// The hash of each top-level value's bytes, by key; `nil` if `bytes` are not such a
  /// property list.
  static func fingerprints(of bytes: Data) -> [String: Int]? {
    bytes.withUnsafeBytes { raw in
      var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
      return scanner.fingerprints()
    }
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    mutating func fingerprints() -> [String: Int]? {
      while let tag = nextTag(), tag.name != "dict" {
        guard ["?xml", "!DOCTYPE", "plist"].contains(tag.name) else { return nil }
      }
      var fingerprints: [String: Int] = [:]
      while let tag = nextTag() {
        if tag.name == "/dict" { return nextTag()?.name == "/plist" ? fingerprints : nil }
        guard tag.name == "key", let key = text(until: "/key"), let value = nextTag(),
          let end = end(of: value.name)
        else { return nil }
        var hasher = Hasher()
        hasher.combine(
          bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[value.start..<end]))
        )
        fingerprints[key] = hasher.finalize()
      }
      return nil
    }

    /// The next tag's name (`/name` for a closing tag, `name/` for an empty one) and where
    /// it starts; the scanner moves past it.
    mutating func nextTag() -> (name: String, start: Int)? {
      guard let open = find(UInt8(ascii: "<"), from: index),
        let close = find(UInt8(ascii: ">"), from: open)
      else { return nil }
      index = close + 1
      var name = bytes[(open + 1)..<close]
      if let space = name.firstIndex(of: UInt8(ascii: " ")) {
        let isEmpty = name.last == UInt8(ascii: "/")
        name = name[..<space]
        if isEmpty { return (String(decoding: name, as: UTF8.self) + "/", open) }
      }
      return (String(decoding: name, as: UTF8.self), open)
    }

    /// The text up to the tag `closing`, unescaped; `nil` if it holds an entity the
    /// property lists Foundation writes do not.
    mutating func text(until closing: String) -> String? {
      let start = index
      guard let tag = nextTag(), tag.name == closing else { return nil }
      var text = String(decoding: bytes[start..<tag.start], as: UTF8.self)
      guard text.contains("&") else { return text }
      for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'")] {
        text = text.replacingOccurrences(of: entity, with: character)
      }
      guard !text.replacingOccurrences(of: "&amp;", with: "").contains("&") else { return nil }
      return text.replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Where the value that starts with the tag `name` ends, the scanner moved there.
    mutating func end(of name: String) -> Int? {
      if name.hasSuffix("/") { return index }
      var depth = 1
      while depth > 0, let tag = nextTag() {
        if tag.name == name { depth += 1 }
        if tag.name == "/" + name { depth -= 1 }
      }
      return depth == 0 ? index : nil
    }

    private func find(_ byte: UInt8, from start: Int) -> Int? {
      guard start < bytes.count, let base = bytes.baseAddress,
        let found = memchr(base + start, Int32(byte), bytes.count - start)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }
}
