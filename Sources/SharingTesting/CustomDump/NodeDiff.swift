/// Diffs two ``DumpNode`` trees, descending into containers whose shapes match.
///
/// Containers of the same type (or enum case) are compared child by child: struct fields by
/// position, array and set elements by a shortest edit script, dictionary entries by key.
/// Unchanged children print collapsed (`stats: Stats(…)`), and runs of two or more unchanged
/// elements in a collection print as `… (N unchanged)`. Anything else falls back to a line
/// diff of the two renderings. Each line is written with its ``DiffFormat`` marker as it is
/// found.
struct NodeDiff {
  /// The markers of the lines.
  let format: DiffFormat
  /// The indentation of the lines diffed: two spaces per container they are in.
  var indent = ""

  /// The lines of the diff of two dumps, with the markers of `format`; `nil` if they are
  /// equal.
  ///
  /// Dumped separately, the expected value can be dumped where shared values read their
  /// snapshots, and the actual value where they read their current values.
  static func lines(_ first: DumpNode, _ second: DumpNode, format: DiffFormat) -> [String]? {
    guard first != second else { return nil }
    let (a, b) = (DumpChild(label: [], node: first), DumpChild(label: [], node: second))
    return NodeDiff(format: format).child(a, b, (false, false))
  }

  /// Whether each side's rendering of a child ends in a comma.
  typealias Commas = (first: Bool, second: Bool)

  /// A line of text with its marker and indentation; a blank line has no trailing spaces.
  private func line(_ marker: KeyPath<DiffFormat, String>, _ text: String) -> String {
    let marker = format[keyPath: marker]
    guard !text.isEmpty else { return marker == " " ? "" : marker }
    return "\(marker) \(indent)\(text)"
  }

  private func child(_ first: DumpChild, _ second: DumpChild, _ commas: Commas) -> [String] {
    if first.node == second.node {
      // Unchanged, so collapsed. A comma that only one side has is not a change worth showing,
      // so the second side's punctuation is used.
      let collapsed = DumpChild(label: second.label, node: second.node.collapsed)
      return collapsed.lines(comma: commas.second).map { line(\.both, $0) }
    }
    let (a, b) = (first.node, second.node)
    guard first.label == second.label, let steps = Self.alignment(a, b) else {
      let (old, new) = (first.lines(comma: commas.first), second.lines(comma: commas.second))
      return editScript(old, new).map { step in
        switch step {
        case .both(_, let j): line(\.both, new[j])
        case .first(let i): line(\.first, old[i])
        case .second(let j): line(\.second, new[j])
        }
      }
    }
    let header = DumpChild.labeling([a.text], with: first.label).map { line(\.both, $0) }
    let body = NodeDiff(format: format, indent: indent + "  ")
      .children(steps, a.children, b.children, collapsesRuns: a.kind != .fields)
    return header + body + [line(\.both, b.closing + (commas.second ? "," : ""))]
  }

  /// How the children of two containers correspond, or `nil` when they are not comparable
  /// child by child.
  private static func alignment(_ a: DumpNode, _ b: DumpNode) -> [EditStep]? {
    guard
      a.kind == b.kind, a.text == b.text, a.closing == b.closing,
      a.singleLine == nil, b.singleLine == nil
    else { return nil }
    switch a.kind {
    case .leaf:
      return nil
    case .fields:
      guard a.children.map(\.label) == b.children.map(\.label) else { return nil }
      return a.children.indices.map { .both($0, $0) }
    case .elements:
      return editScript(a.children.map(\.node), b.children.map(\.node)) {
        a.children[$0].label == b.children[$1].label
      }
    case .set:
      return editScript(a.children.map(\.node), b.children.map(\.node))
    case .dictionary:
      return editScript(a.children.map(\.label), b.children.map(\.label))
    }
  }

  /// The diff of two containers' children, following an alignment.
  private func children(
    _ steps: [EditStep],
    _ a: [DumpChild],
    _ b: [DumpChild],
    collapsesRuns: Bool
  ) -> [String] {
    var lines: [String] = []
    var run: [(Int, Int)] = []
    func commas(_ i: Int, _ j: Int) -> Commas { (i < a.count - 1, j < b.count - 1) }
    func flushRun() {
      if collapsesRuns, run.count > 1, let (i, j) = run.last {
        lines.append(line(\.both, "… (\(run.count) unchanged)" + (commas(i, j).second ? "," : "")))
      } else {
        for (i, j) in run { lines += child(a[i], b[j], commas(i, j)) }
      }
      run = []
    }
    for step in steps {
      if case .both(let i, let j) = step, a[i].node == b[j].node {
        run.append((i, j))
        continue
      }
      flushRun()
      switch step {
      case .both(let i, let j):
        lines += child(a[i], b[j], commas(i, j))
      case .first(let i):
        lines += a[i].lines(comma: i < a.count - 1).map { line(\.first, $0) }
      case .second(let j):
        lines += b[j].lines(comma: j < b.count - 1).map { line(\.second, $0) }
      }
    }
    flushRun()
    return lines
  }
}
