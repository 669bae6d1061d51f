/// Readable type names: module prefixes dropped, standard generics in sugared form.
///
/// `SharingTestingTests.Outer.Inner<Swift.Optional<Swift.Int>>` reads `Outer.Inner<Int?>`.
package enum TypeName {
  /// The readable name of a type.
  package static func of(_ type: Any.Type) -> String {
    simplify(removingContexts(from: _typeName(type, qualified: true))[...])
  }

  /// Drops the runtime's `(unknown context at $…).` and `(extension in Module):` segments,
  /// which private and local types carry.
  private static func removingContexts(from name: String) -> String {
    var name = name
    for (marker, terminator) in [("(unknown context at ", ")."), ("(extension in ", "):")] {
      while let start = name.firstRange(of: marker),
        let end = name[start.upperBound...].firstRange(of: terminator)
      {
        name.removeSubrange(start.lowerBound..<end.upperBound)
      }
    }
    return name
  }

  private static func simplify(_ text: Substring) -> String {
    var output = ""
    var index = text.startIndex
    while index < text.endIndex {
      guard text[index].isIdentifierHead else {
        output.append(text[index])
        index = text.index(after: index)
        continue
      }
      // A name after `>.` continues a path (`Outer<Int>.Inner`) and has no module prefix.
      let continuesPath = output.last == "."
      var end = index
      while end < text.endIndex, text[end].isIdentifierBody || text[end] == "." {
        end = text.index(after: end)
      }
      let qualifiedName = String(text[index..<end])
      var components = qualifiedName.split(separator: ".")
      if !continuesPath, components.count > 1 { components.removeFirst() }
      index = end
      var arguments: [String] = []
      if index < text.endIndex, text[index] == "<",
        let close = closingBracket(in: text, from: index)
      {
        arguments = topLevelArguments(text[text.index(after: index)..<close]).map(simplify)
        index = text.index(after: close)
      }
      output += sugared(qualifiedName, components.joined(separator: "."), arguments)
    }
    return output
  }

  private static func sugared(
    _ qualifiedName: String,
    _ name: String,
    _ arguments: [String]
  ) -> String {
    switch (qualifiedName, arguments.count) {
    case ("Swift.Optional", 1):
      let wrapped = arguments[0]
      let needsParentheses = ["->", " & ", "any ", "some "].contains { wrapped.contains($0) }
      return needsParentheses ? "(\(wrapped))?" : "\(wrapped)?"
    case ("Swift.Array", 1):
      return "[\(arguments[0])]"
    case ("Swift.Dictionary", 2):
      return "[\(arguments[0]): \(arguments[1])]"
    case (_, 0):
      return name
    default:
      return "\(name)<\(arguments.joined(separator: ", "))>"
    }
  }

  private static func closingBracket(
    in text: Substring,
    from open: Substring.Index
  ) -> Substring.Index? {
    var depth = 0
    var previous: Character?
    for index in text[open...].indices {
      switch text[index] {
      case "<": depth += 1
      case ">" where previous != "-":
        depth -= 1
        if depth == 0 { return index }
      default: break
      }
      previous = text[index]
    }
    return nil
  }

  private static func topLevelArguments(_ text: Substring) -> [Substring] {
    var arguments: [Substring] = []
    var depth = 0
    var start = text.startIndex
    var previous: Character?
    for index in text.indices {
      switch text[index] {
      case "<", "(", "[": depth += 1
      case ">" where previous != "-", ")", "]": depth -= 1
      case "," where depth == 0:
        arguments.append(text[start..<index])
        start = text.index(after: index)
      default: break
      }
      previous = text[index]
    }
    arguments.append(text[start...])
    return arguments.map { $0.drop { $0 == " " } }
  }
}

extension Character {
  fileprivate var isIdentifierHead: Bool { isLetter || self == "_" }
  fileprivate var isIdentifierBody: Bool { isLetter || isNumber || self == "_" }
}
