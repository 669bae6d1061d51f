/// A value rendered as a tree of text, the common ground of dumping and diffing.
///
/// ``Dumper`` builds nodes from values; rendering turns them into lines, and ``NodeDiff``
/// compares two trees node by node.
indirect enum DumpNode: Equatable, Sendable {
  /// Text that has no children: numbers, quoted strings, enum cases without payloads.
  ///
  /// The text may span lines (a `"""` string block); later lines are relative to the first.
  case leaf(String)
  /// A value with children: a struct, class, tuple, collection or enum payload.
  case container(DumpContainer)
}

/// The children of a ``DumpNode`` together with the brackets that surround them.
struct DumpContainer: Equatable, Sendable {
  /// How children relate to each other, which decides how two containers are diffed.
  enum Kind: Equatable, Sendable {
    /// Named or positional fields of a struct, class, tuple or enum payload.
    case fields
    /// Ordered elements of a collection, labeled by index.
    case elements
    /// Unordered elements, sorted by their dumps.
    case set
    /// Key-value pairs, sorted by the dumps of their keys.
    case dictionary
  }

  var kind: Kind
  /// The text before the children, such as `Stats(` or `[`.
  var opening: String
  /// The text after the children, such as `)` or `]`.
  var closing: String
  /// Whether the children are printed on one line when they all fit on one.
  var isInline = false
  var children: [DumpChild]

  /// The container printed with its children elided, such as `Stats(…)`.
  var collapsed: String { "\(opening)…\(closing)" }

  /// The container printed without children, such as `Stats()` or `[:]`.
  var emptyForm: String { kind == .dictionary ? "[:]" : opening + closing }
}

/// A child of a ``DumpContainer``: a node and the label it is printed after.
struct DumpChild: Equatable, Sendable {
  var label: DumpLabel
  var node: DumpNode
}

/// What precedes a child's value.
enum DumpLabel: Equatable, Sendable {
  /// Nothing, for set elements, unlabeled tuple fields and enum payloads.
  case none
  /// A field name, printed `name: `.
  case field(String)
  /// A collection index, printed `[3]: `.
  case index(Int)
  /// A dictionary key, printed as its own dump followed by `: `.
  case key(DumpNode)
}
