/// Diffs two ``DumpNode`` trees, descending into containers whose shapes match.
///
/// Containers of the same type (or enum case) are compared child by child: struct fields by
/// position, array and set elements by a shortest edit script, dictionary entries by key.
/// Unchanged children print collapsed (`stats: Stats(…)`), and runs of two or more unchanged
/// elements in a collection print as `… (N unchanged)`. Anything else falls back to a line
/// diff of the two renderings.
enum NodeDiff {
  /// The lines of the diff of two dumps, with the markers of `format`; `nil` if they are
  /// equal.
  ///
  /// Dumped separately, the expected value can be dumped where shared values read their
  /// snapshots, and the actual value where they read their current values.
  static func lines(_ first: DumpNode, _ second: DumpNode, format: DiffFormat) -> [String]? {
    guard first != second else { return nil }
    let (a, b) = (DumpChild(label: [], node: first), DumpChild(label: [], node: second))
    return child(a, b, (false, false)).map(format.format)
  }

  /// Whether each side's rendering of a child ends in a comma.
  typealias Commas = (first: Bool, second: Bool)

  private static func child(
    _ first: DumpChild,
    _ second: DumpChild,
    _ commas: Commas
  ) -> [DiffLine] {
    if first.node == second.node {
      // Unchanged, so collapsed. A comma that only one side has is not a change worth showing,
      // so the second side's punctuation is used.
      let collapsed = DumpChild(label: second.label, node: second.node.collapsed)
      return collapsed.lines(comma: commas.second).map(DiffLine.both)
    }
    let (a, b) = (first.node, second.node)
    guard first.label == second.label, let steps = alignment(a, b) else {
      return EditScript.lines(first.lines(comma: commas.first), second.lines(comma: commas.second))
    }
    let header = DumpChild.labeling([a.text], with: first.label)
    let body = children(steps, a.children, b.children, collapsesRuns: a.kind != .fields)
    return header.map(DiffLine.both) + body.map(\.indented)
      + [.both(b.closing + (commas.second ? "," : ""))]
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
      return EditScript.align(a.children.map(\.node), b.children.map(\.node)) {
        a.children[$0].label == b.children[$1].label
      }
    case .set:
      return EditScript.align(a.children.map(\.node), b.children.map(\.node))
    case .dictionary:
      return EditScript.align(a.children.map(\.label), b.children.map(\.label))
    }
  }

  /// The diff of two containers' children, following an alignment.
  private static func children(
    _ steps: [EditStep],
    _ a: [DumpChild],
    _ b: [DumpChild],
    collapsesRuns: Bool
  ) -> [DiffLine] {
    var lines: [DiffLine] = []
    var run: [(Int, Int)] = []
    func commas(_ i: Int, _ j: Int) -> Commas { (i < a.count - 1, j < b.count - 1) }
    func flushRun() {
      if collapsesRuns, run.count > 1, let (i, j) = run.last {
        lines.append(.both("… (\(run.count) unchanged)" + (commas(i, j).second ? "," : "")))
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
        lines += a[i].lines(comma: i < a.count - 1).map(DiffLine.first)
      case .second(let j):
        lines += b[j].lines(comma: j < b.count - 1).map(DiffLine.second)
      }
    }
    flushRun()
    return lines
  }
}
