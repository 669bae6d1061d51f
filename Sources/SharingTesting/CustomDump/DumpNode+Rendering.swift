extension DumpNode {
  /// The node's text, one entry per line, with children indented by two spaces.
  var lines: [String] {
    if let singleLine { return [singleLine] }
    if kind == .leaf { return text.lineFeedSeparated }
    let body = children.indices.flatMap { index in
      children[index].lines(comma: index < children.count - 1).map(\.indented)
    }
    return [text] + body + [closing]
  }

  /// The node's text when it renders on a single line.
  var singleLine: String? {
    if kind == .leaf { return text.unicodeScalars.contains("\n") ? nil : text }
    guard isInline else { return nil }
    let parts = children.compactMap(\.singleLine)
    guard parts.count == children.count else { return nil }
    return text + parts.joined(separator: ", ") + closing
  }

  /// The node with its children elided, such as `Stats(…)`, for unchanged subtrees in a diff.
  var collapsed: DumpNode {
    kind == .leaf || singleLine != nil ? self : .leaf("\(text)…\(closing)")
  }
}

extension DumpChild {
  /// The child's lines, its label before the first line of its value.
  func lines(comma: Bool) -> [String] {
    var lines = Self.labeling(node.lines, with: label)
    if comma { lines[lines.count - 1] += "," }
    return lines
  }

  var singleLine: String? {
    guard let value = node.singleLine, label.count <= 1 else { return nil }
    return Self.labeling([value], with: label)[0]
  }

  /// `lines` after the lines of `label` and `: `.
  static func labeling(_ lines: [String], with label: [String]) -> [String] {
    guard let last = label.last else { return lines }
    return label.dropLast() + [last + ": " + lines[0]] + lines.dropFirst()
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
