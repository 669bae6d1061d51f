/// A value rendered as a tree of text, the common ground of dumping and diffing.
///
/// ``Dumper`` builds nodes from values; rendering turns them into lines, and ``NodeDiff``
/// compares two trees node by node. A node without children is a leaf: a number, a quoted
/// string, an enum case without payload, an elided or empty container (`Stats(…)`, `[:]`).
struct DumpNode: Equatable, Sendable {
  /// How children relate to each other, which decides how two containers are diffed.
  enum Kind: Equatable, Sendable {
    /// Text without children. It may span lines (a `"""` string block); later lines are
    /// relative to the first.
    case leaf
    /// Named or positional fields of a struct, class, tuple or enum payload.
    case fields
    /// Ordered elements of a collection, labeled by index.
    case elements
    /// Unordered elements, sorted by their dumps.
    case set
    /// Key-value pairs, sorted by the dumps of their keys.
    case dictionary
  }

  var kind = Kind.leaf
  /// A leaf's text, or the text before a container's children, such as `Stats(` or `[`.
  var text: String
  /// The text after the children, such as `)` or `]`.
  var closing = ""
  /// Whether the children are printed on one line when they all fit on one.
  var isInline = false
  /// The children of a container, never empty: a container without any is a leaf.
  var children: [DumpChild] = []

  static func leaf(_ text: String) -> DumpNode { DumpNode(text: text) }
}

/// A child of a container ``DumpNode``: a node and the label it is printed after.
struct DumpChild: Equatable, Sendable {
  /// The lines printed before the value and `: `: none (set elements, unlabeled tuple fields,
  /// enum payloads), a field name, an index (`[3]`), or a dictionary key's dump.
  var label: [String]
  var node: DumpNode
}
