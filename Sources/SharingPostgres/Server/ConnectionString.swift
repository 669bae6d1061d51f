/// What SharingPostgres reads in libpq connection strings.
enum ConnectionString {
  /// The connection string with its password, if it has one, replaced by `***`: in a URI's
  /// user information or `password` query parameter, or a `password=` keyword's value.
  static func redacting(_ text: String) -> String {
    text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
      ? redactingURI(text) : redactingKeywords(text)
  }

  private static func redactingURI(_ text: String) -> String {
    var result = Array(text)
    let start = result.firstIndex(of: ":")! + 3
    let end = result[start...].firstIndex { $0 == "/" || $0 == "?" } ?? result.count
    if let at = result[start..<end].lastIndex(of: "@"),
      let colon = result[start..<at].firstIndex(of: ":")
    {
      result.replaceSubrange((colon + 1)..<at, with: "***")
    }
    guard let question = result.firstIndex(of: "?") else { return String(result) }
    let parameters = result[(question + 1)...]
      .split(separator: "&", omittingEmptySubsequences: false)
      .map { $0.starts(with: "password=") ? "password=***" : String($0) }
    return String(result[...question]) + parameters.joined(separator: "&")
  }

  /// Rewrites `keyword = value` pairs, values bare or in single quotes with backslash escapes.
  private static func redactingKeywords(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while !rest.isEmpty {
      let keyword = rest.prefix { $0 != "=" && !$0.isWhitespace }
      let separator = rest.dropFirst(keyword.count).prefix { $0.isWhitespace || $0 == "=" }
      rest = rest.dropFirst(keyword.count + separator.count)
      let value = Self.value(at: rest)
      let space = rest.dropFirst(value.count).prefix(while: \.isWhitespace)
      result += keyword + separator + (keyword == "password" ? "***" : value) + space
      rest = rest.dropFirst(value.count + space.count)
    }
    return result
  }

  /// The value at the start of `text`: up to a space, or in single quotes; a backslash escapes
  /// the next character.
  private static func value(at text: Substring) -> Substring {
    let isQuoted = text.first == "'"
    var end = isQuoted ? text.index(after: text.startIndex) : text.startIndex
    while end < text.endIndex, isQuoted ? text[end] != "'" : !text[end].isWhitespace {
      let length = text[end] == "\\" ? 2 : 1
      end = text.index(end, offsetBy: length, limitedBy: text.endIndex) ?? text.endIndex
    }
    return text[..<(isQuoted && end < text.endIndex ? text.index(after: end) : end)]
  }
}
