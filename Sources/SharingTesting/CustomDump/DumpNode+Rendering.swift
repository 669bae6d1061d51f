extension DumpNode {
  /// The node's text, one entry per line, with children indented by two spaces.
  var lines: [String] {
    switch self {
    case .leaf(let text): text.lineFeedSeparated
    case .container(let container): container.lines
    }
  }

  /// The node's text when it renders on a single line.
  var singleLine: String? {
    switch self {
    case .leaf(let text): text.unicodeScalars.contains("\n") ? nil : text
    case .container(let container): container.singleLine
    }
  }

  /// The node with its children elided, for unchanged subtrees in a diff.
  var collapsed: DumpNode {
    guard case .container(let container) = self, singleLine == nil else { return self }
    return .leaf(container.collapsed)
  }
}

extension DumpContainer {
  var lines: [String] {
    if let singleLine { return [singleLine] }
    let body = children.indices.flatMap { index in
      children[index].lines(comma: index < children.count - 1).map(\.indented)
    }
    return [opening] + body + [closing]
  }

  var singleLine: String? {
    if children.isEmpty { return emptyForm }
    guard isInline else { return nil }
    let parts = children.compactMap(\.singleLine)
    guard parts.count == children.count else { return nil }
    return opening + parts.joined(separator: ", ") + closing
  }
}

extension DumpChild {
  /// The child's lines, its label before the first line of its value.
  func lines(comma: Bool) -> [String] {
    var lines = label.prefixing(node.lines)
    if comma, let last = lines.popLast() { lines.append(last + ",") }
    return lines
  }

  var singleLine: String? {
    guard let value = node.singleLine else { return nil }
    let lines = label.prefixing([value])
    return lines.count == 1 ? lines.first : nil
  }
}

extension DumpLabel {
  func prefixing(_ lines: [String]) -> [String] {
    let labelLines: [String]
    switch self {
    case .none: return lines
    case .field(let name): labelLines = [name]
    case .index(let index): labelLines = ["[\(index)]"]
    case .key(let key): labelLines = key.lines
    }
    return labelLines.dropLast() + [(labelLines.last ?? "") + ": " + (lines.first ?? "")]
      + lines.dropFirst()
  }
}

extension String {
  /// The line moved two spaces right; blank lines stay blank.
  var indented: String { isEmpty ? self : "  " + self }

  /// The lines of the text, split at every line feed.
  ///
  /// `Character` treats `\r\n` as one character, so splitting on `"\n"` characters would
  /// miss Windows line endings; this splits on scalars and leaves the `\r` on its line.
  var lineFeedSeparated: [String] {
    unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
      .map { String(Substring($0)) }
  }
}
