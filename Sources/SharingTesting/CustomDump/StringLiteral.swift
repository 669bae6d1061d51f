/// Renders text as a Swift string literal.
///
/// Single-line text is quoted with escapes (`"say \"hi\"\t"`); text with line breaks becomes
/// a `"""` block whose lines sit at the indentation of its closing delimiter. Printable
/// Unicode (emoji, CJK, combining marks) is kept as is; control characters are escaped, and
/// so is a combining mark that starts a line, so it cannot fuse with the quote or indentation.
enum StringLiteral {
  static func render(_ text: some StringProtocol) -> String {
    guard text.unicodeScalars.contains("\n") else { return quoted(text) }
    let lines = String(text).lineFeedSeparated
    return (["\"\"\""] + lines.map { escaped($0, isBlock: true) } + ["\"\"\""])
      .joined(separator: "\n")
  }

  static func quoted(_ text: some StringProtocol) -> String {
    "\"\(escaped(text, isBlock: false))\""
  }

  private static func escaped(_ text: some StringProtocol, isBlock: Bool) -> String {
    var output = ""
    var quoteRun = 0
    for (offset, scalar) in text.unicodeScalars.enumerated() {
      quoteRun = scalar == "\"" ? quoteRun + 1 : 0
      switch scalar {
      case "\\": output += "\\\\"
      case "\"" where !isBlock || quoteRun == 3:
        output += "\\\""
        quoteRun = 0
      case "\0": output += "\\0"
      case "\t": output += "\\t"
      case "\r": output += "\\r"
      case "\n": output += "\\n"
      case _ where needsUnicodeEscape(scalar, isFirst: offset == 0):
        output += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  private static func needsUnicodeEscape(_ scalar: Unicode.Scalar, isFirst: Bool) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: true
    case .nonspacingMark, .spacingMark, .enclosingMark: isFirst
    default: false
    }
  }
}
