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
final class Dumper {
  /// How many container levels are printed; deeper containers print as `TypeName(…)`.
  private let maxDepth: Int
  /// How many elements of a collection are printed before `… (N more)`; `nil` prints all.
  let elementLimit: Int?
  /// How many containers enclose the value being dumped: 0 at the root of the dump.
  private(set) var depth = 0
  /// The objects on the path from the root to the value being dumped, to stop at reference
  /// cycles.
  private var visiting: Set<ObjectIdentifier> = []
  // Not private: `sharedNode(_:)` (Dumper+Shared.swift) numbers shared references.
  /// The number of each shared reference met so far anywhere in the dump.
  var referenceNumbers: [ObjectIdentifier: Int] = [:]
  /// How many shared references of each value type were met so far.
  var referenceCounts: [String: Int] = [:]

  /// The number of elements a dump prints of a collection before abbreviating it.
  static let defaultElementLimit = 50

  private init(maxDepth: Int, elementLimit: Int?) {
    self.maxDepth = maxDepth
    self.elementLimit = elementLimit
  }

  /// The tree of a value, its shared references numbered from 1.
  static func node(for value: Any, maxDepth: Int = .max, elementLimit: Int? = nil) -> DumpNode {
    Dumper(maxDepth: maxDepth, elementLimit: elementLimit).node(value)
  }

  func node(_ value: Any) -> DumpNode {
    if let optional = value as? any AnyOptional {
      guard let wrapped = optional.wrappedAny else { return .leaf("nil") }
      return node(wrapped)
    }
    if type(of: value) == AnyHashable.self, let hashable = value as? AnyHashable {
      return node(hashable.base)
    }
    if let value = value as? any CustomDumpStringConvertible {
      return .leaf(value.customDumpDescription)
    }
    if let shared = value as? any DumpedWithIdentity {
      return sharedNode(shared)
    }
    if let representable = value as? any CustomDumpRepresentable {
      let represented = representable.customDumpValue
      if type(of: represented) != type(of: value) { return node(represented) }
    }
    if let reflectable = value as? any CustomDumpReflectable {
      return node(value, mirror: reflectable.customDumpMirror)
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
    return node(value, mirror: mirror)
  }

  private func node(_ value: Any, mirror: Mirror) -> DumpNode {
    let typeName = TypeName.of(mirror.subjectType)
    let object = type(of: value) is AnyClass ? ObjectIdentifier(value as AnyObject) : nil
    if let object, !visiting.insert(object).inserted { return .leaf("\(typeName)(↩︎)") }
    defer { if let object { visiting.remove(object) } }
    let hasChildren = Self.hasChildren(mirror)
    let (kind, opening, closing, children): (DumpNode.Kind, String, String, Children)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return .leaf("nil") }
      return node(wrapped)
    case .enum:
      return enumNode(value, mirror: mirror, typeName: typeName)
    case .tuple: (kind, opening, closing, children) = (.fields, "(", ")", fields(of:))
    case .collection: (kind, opening, closing, children) = (.elements, "[", "]", elements)
    case .set: (kind, opening, closing, children) = (.set, "Set([", "])", setElements)
    case .dictionary: (kind, opening, closing, children) = (.dictionary, "[", "]", entries)
    default:
      // Without a display style or children a value is opaque, like a closure.
      if mirror.displayStyle == nil, !hasChildren, !(value is any CustomDumpReflectable) {
        return .leaf(String(describing: value))
      }
      (kind, opening, closing, children) = (.fields, "\(typeName)(", ")", fields(of:))
    }
    let shape = DumpNode(kind: kind, text: opening, closing: closing)
    return container(shape, hasChildren) { children(mirror) }
  }

  /// How the children of a container are dumped from its mirror.
  typealias Children = (Mirror) -> [DumpChild]

  /// A container node of the given shape, filled with the children `children` dumps, elided
  /// beyond ``maxDepth``; a leaf when it has none.
  func container(_ shape: DumpNode, _ hasChildren: Bool, children: () -> [DumpChild]) -> DumpNode {
    let empty = DumpNode.leaf(shape.kind == .dictionary ? "[:]" : shape.text + shape.closing)
    guard depth < maxDepth else {
      return hasChildren ? .leaf("\(shape.text)…\(shape.closing)") : empty
    }
    depth += 1
    defer { depth -= 1 }
    var node = shape
    node.children = children()
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
