extension Dumper {
  /// An enum case: `.name`, `.name(payload)` or `.name(label: payload, …)`.
  ///
  /// The type name is printed only at the root of a dump (`Tab.counter`); nested cases
  /// print with a leading dot (`.counter`), their type implied by context.
  func enumNode(_ value: Any, mirror: Mirror, typeName: String) -> DumpNode {
    let prefix = depth == 0 ? "\(typeName)." : "."
    guard let payload = mirror.children.first else {
      // The case's name even when the enum has a custom description: the value is opened to
      // its dynamic type, which the runtime reads the case of.
      let name = swiftEnumCaseName(value).map { String(cString: $0) }
      return .leaf(prefix + (name ?? String(describing: value)))
    }
    let payloadMirror = Mirror(reflecting: payload.value)
    let opening = "\(prefix)\(payload.label ?? String(describing: value))("
    let shape = DumpNode(kind: .fields, text: opening, closing: ")", isInline: true)
    return container(shape, true) {
      guard payloadMirror.displayStyle == .tuple else {
        return [DumpChild(label: [], node: node(payload.value))]
      }
      return fields(of: payloadMirror)
    }
  }
}

// The runtime entry point behind `print` for enum cases; it returns `nil` for non-enums.
@_silgen_name("swift_EnumCaseName")
private func swiftEnumCaseName<Value>(_ value: Value) -> UnsafePointer<CChar>?
