/// Readable type names: module prefixes dropped, standard generics in sugared form.
///
/// `SharingTestingTests.Outer.Inner<Swift.Optional<Swift.Int>>` reads `Outer.Inner<Int?>`.
package enum TypeName {
  /// The readable name of a type.
  package static func of(_ type: Any.Type) -> String {
    var text = removingContexts(from: _typeName(type, qualified: true))[...]
    return simplify(&text, isArgument: false)
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

  /// Simplifies the names at the start of `text`, consuming them: up to its end or, for a
  /// generic argument, up to the `,` or `>` that ends it.
  private static func simplify(_ text: inout Substring, isArgument: Bool) -> String {
    var output = ""
    // Parentheses and brackets opened in this argument: a `,` inside them does not end it.
    var depth = 0
    while let character = text.first {
      let endsArgument = character == "," || (character == ">" && output.last != "-")
      if isArgument, depth == 0, endsArgument { break }
      guard character.isLetter || character == "_" else {
        if "([".contains(character) { depth += 1 }
        if ")]".contains(character) { depth -= 1 }
        output.append(text.removeFirst())
        continue
      }
      // A name after `>.` continues a path (`Outer<Int>.Inner`) and has no module prefix.
      let continuesPath = output.last == "."
      let qualifiedName = String(text.prefix { $0.isLetter || $0.isNumber || "_.".contains($0) })
      text.removeFirst(qualifiedName.count)
      var components = qualifiedName.split(separator: ".")
      if !continuesPath, components.count > 1 { components.removeFirst() }
      var arguments: [String] = []
      if text.first == "<" {
        repeat {
          text.removeFirst()  // The `<` or `,` before the argument.
          arguments.append(String(simplify(&text, isArgument: true).drop { $0 == " " }))
        } while text.first == ","
        if text.first == ">" { text.removeFirst() }
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
}
