import SharingCore

/// Builds the ``DumpNode`` tree of a value by walking its mirror.
///
/// The rules, in order of precedence:
/// 1. `Optional` prints `nil` or its wrapped value.
/// 2. ``CustomDumpStringConvertible``, ``CustomDumpRepresentable`` and
///    ``CustomDumpReflectable`` conformances; a `Shared` prints its value after the number
///    of its reference (`#1 0`), and `#1 Int(↩︎)` when that reference is met again.
/// 3. Scalars: strings, numbers, `Bool`, `Date`, `URL`, `UUID`, `Data`, `Decimal`, metatypes.
/// 4. The mirror's display style: struct, class, enum, tuple, collection, set, dictionary.
///    The mirror's subject type names the value, so a wrapper whose `customMirror` reflects
///    another value (`Shared<Stats>`) prints as that value's type (`Stats(…)`).
struct Dumper {
  /// How many container levels are printed; deeper containers print as `TypeName(…)`.
  var maxDepth = Int.max
  /// How many elements of a collection are printed before `… (N more)`; `nil` prints all.
  var elementLimit: Int?

  /// The number of elements a dump prints of a collection before abbreviating it.
  static let defaultElementLimit = 50

  func node(for value: Any) -> DumpNode {
    node(value, context: Context(depth: 0, visiting: [], references: DumpedReferences()))
  }

  /// Where in the tree a value is being dumped.
  struct Context {
    /// How many containers enclose the value: 0 at the root of the dump.
    var depth: Int
    /// The objects on the path from the root, to stop at reference cycles.
    var visiting: Set<ObjectIdentifier>
    /// The shared references met so far anywhere in the dump.
    let references: DumpedReferences

    var child: Context {
      Context(depth: depth + 1, visiting: visiting, references: references)
    }
  }

  func node(_ value: Any, context: Context) -> DumpNode {
    if let optional = value as? any AnyOptional {
      guard let wrapped = optional.wrappedAny else { return .leaf("nil") }
      return node(wrapped, context: context)
    }
    if type(of: value) == AnyHashable.self, let hashable = value as? AnyHashable {
      return node(hashable.base, context: context)
    }
    if let value = value as? any CustomDumpStringConvertible {
      return .leaf(value.customDumpDescription)
    }
    if let shared = value as? any DumpedWithIdentity {
      return sharedNode(shared, context: context)
    }
    if let representable = value as? any CustomDumpRepresentable {
      let represented = representable.customDumpValue
      if type(of: represented) != type(of: value) { return node(represented, context: context) }
    }
    if let reflectable = value as? any CustomDumpReflectable {
      return node(value, mirror: reflectable.customDumpMirror, context: context)
    }
    if let text = Self.scalarText(value) { return .leaf(text) }
    let mirror = Mirror(reflecting: value)
    // A `customMirror` may describe another value. A mirror keeps no value, so a scalar or a
    // payload-free enum case behind such a wrapper cannot be recovered from it; the wrapper's
    // description stands in.
    if mirror.subjectType != type(of: value), mirror.children.isEmpty,
      mirror.displayStyle == nil || mirror.displayStyle == .enum
    {
      return .leaf(String(describing: value))
    }
    return node(value, mirror: mirror, context: context)
  }

  private func node(_ value: Any, mirror: Mirror, context: Context) -> DumpNode {
    let typeName = TypeName.of(mirror.subjectType)
    var context = context
    if type(of: value) is AnyClass,
      !context.visiting.insert(ObjectIdentifier(value as AnyObject)).inserted
    {
      return .leaf("\(typeName)(↩︎)")
    }
    let hasChildren = Self.hasChildren(mirror)
    let (kind, opening, closing, children): (DumpNode.Kind, String, String, Children)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return .leaf("nil") }
      return node(wrapped, context: context)
    case .enum:
      return enumNode(value, mirror: mirror, typeName: typeName, context: context)
    case .tuple: (kind, opening, closing, children) = (.fields, "(", ")", fields(of:context:))
    case .collection: (kind, opening, closing, children) = (.elements, "[", "]", elements)
    case .set: (kind, opening, closing, children) = (.set, "Set([", "])", setElements)
    case .dictionary: (kind, opening, closing, children) = (.dictionary, "[", "]", entries)
    default:
      // Without a display style or children a value is opaque, like a closure.
      if mirror.displayStyle == nil, !hasChildren, !(value is any CustomDumpReflectable) {
        return .leaf(String(describing: value))
      }
      (kind, opening, closing, children) = (.fields, "\(typeName)(", ")", fields(of:context:))
    }
    let shape = DumpNode(kind: kind, text: opening, closing: closing)
    return container(shape, hasChildren, context) { children(mirror, $0) }
  }

  /// How the children of a container are dumped from its mirror.
  typealias Children = (Mirror, Context) -> [DumpChild]

  /// A container node of the given shape, filled with the children `children` dumps, elided
  /// beyond ``maxDepth``; a leaf when it has none.
  func container(
    _ shape: DumpNode,
    _ hasChildren: Bool,
    _ context: Context,
    children: (Context) -> [DumpChild]
  ) -> DumpNode {
    let empty = DumpNode.leaf(shape.kind == .dictionary ? "[:]" : shape.text + shape.closing)
    guard context.depth < maxDepth else {
      return hasChildren ? .leaf("\(shape.text)…\(shape.closing)") : empty
    }
    var node = shape
    node.children = children(context.child)
    return node.children.isEmpty ? empty : node
  }

  static func hasChildren(_ mirror: Mirror) -> Bool {
    !mirror.children.isEmpty || (mirror.superclassMirror.map(hasChildren) ?? false)
  }
}

/// Gives access to an `Optional`'s wrapped value when it is typed `Any`.
protocol AnyOptional {
  var wrappedAny: Any? { get }
}

extension Optional: AnyOptional {
  var wrappedAny: Any? { self.map { $0 } }
}
