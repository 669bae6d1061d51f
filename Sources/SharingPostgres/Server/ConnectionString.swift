/// What SharingPostgres reads in libpq connection strings.
enum ConnectionString {
  /// The connection string with its password, if it has one, replaced by `***`: in a URI's
  /// user information or `password` query parameter, or a `password=` keyword's value.
  static func redacting(_ text: String) -> String {
    if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") {
      return redactingURI(text)
    }
    return redactingKeywords(text)
  }

  private static func redactingURI(_ text: String) -> String {
    let characters = Array(text)
    let start = characters.firstIndex(of: ":")! + 3
    let end = characters[start...].firstIndex { $0 == "/" || $0 == "?" } ?? characters.count
    var result = characters
    if let at = characters[start..<end].lastIndex(of: "@"),
      let colon = characters[start..<at].firstIndex(of: ":")
    {
      result.replaceSubrange((colon + 1)..<at, with: "***")
    }
    guard let question = result.firstIndex(of: "?") else { return String(result) }
    let parameters = result[(question + 1)...].split(
      separator: "&",
      omittingEmptySubsequences: false
    )
    .map { parameter in
      parameter.starts(with: "password=") ? Array("password=***")[...] : parameter
    }
    return String(result[...question]) + parameters.map { String($0) }.joined(separator: "&")
  }

  /// Rewrites `keyword = value` pairs, values bare or in single quotes with backslash escapes.
  private static func redactingKeywords(_ text: String) -> String {
    let characters = Array(text)
    var result = ""
    var index = 0
    while index < characters.count {
      let keywordStart = index
      while index < characters.count, characters[index] != "=", !characters[index].isWhitespace {
        index += 1
      }
      let keyword = String(characters[keywordStart..<index])
      while index < characters.count, characters[index].isWhitespace || characters[index] == "=" {
        index += 1
      }
      let valueStart = index
      if index < characters.count, characters[index] == "'" {
        index += 1
        while index < characters.count, characters[index] != "'" {
          index += characters[index] == "\\" ? 2 : 1
        }
        index = min(index + 1, characters.count)
      } else {
        while index < characters.count, !characters[index].isWhitespace {
          index += characters[index] == "\\" ? 2 : 1
        }
        index = min(index, characters.count)
      }
      result += String(characters[keywordStart..<valueStart])
      result += keyword == "password" ? "***" : String(characters[valueStart..<index])
      let spaceStart = index
      while index < characters.count, characters[index].isWhitespace { index += 1 }
      result += String(characters[spaceStart..<index])
    }
    return result
  }
}
