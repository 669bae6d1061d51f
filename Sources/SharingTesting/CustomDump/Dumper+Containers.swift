extension Dumper {
  /// Fields of a struct, class or tuple; a class's inherited fields come first.
  func fields(of mirror: Mirror) -> [DumpChild] {
    let inherited = mirror.superclassMirror.map { fields(of: $0) } ?? []
    return inherited
      + mirror.children.compactMap { child in
        // Macros store bookkeeping such as `_$observationRegistrar` in `_$` fields.
        if child.label?.hasPrefix("_$") == true { return nil }
        return DumpChild(label: Self.fieldLabel(child.label), node: node(child.value))
      }
  }

  /// Elements of an ordered collection, labeled by index.
  func elements(of mirror: Mirror) -> [DumpChild] {
    let children = mirror.children.enumerated().lazy.map { offset, child in
      DumpChild(label: ["[\(offset)]"], node: self.node(child.value))
    }
    return abbreviated(children, total: mirror.children.count)
  }

  /// Elements of a set, sorted by their dumps.
  func setElements(of mirror: Mirror) -> [DumpChild] {
    let sorted = mirror.children
      .map { DumpChild(label: [], node: node($0.value)) }
      .sorted { Self.sortKey($0.node.lines) < Self.sortKey($1.node.lines) }
    return abbreviated(sorted, total: sorted.count)
  }

  /// Entries of a dictionary, labeled by the dumps of their keys and sorted by them.
  func entries(of mirror: Mirror) -> [DumpChild] {
    let sorted = mirror.children
      .compactMap { entry -> DumpChild? in
        let pair = Mirror(reflecting: entry.value).children.map(\.value)
        guard pair.count == 2 else { return nil }
        let key = node(pair[0]).lines
        return DumpChild(label: key, node: node(pair[1]))
      }
      .sorted { Self.sortKey($0.label) < Self.sortKey($1.label) }
    return abbreviated(sorted, total: sorted.count)
  }

  /// The first ``elementLimit`` of a collection's `total` elements, and `… (N more)` when
  /// there are more.
  private func abbreviated(_ children: some Sequence<DumpChild>, total: Int) -> [DumpChild] {
    let shown = Array(children.prefix(elementLimit ?? total))
    guard total > shown.count else { return shown }
    return shown + [DumpChild(label: [], node: .leaf("… (\(total - shown.count) more)"))]
  }

  private static func fieldLabel(_ label: String?) -> [String] {
    // Mirrors label unlabeled tuple elements `.0`, `.1`, ….
    guard let label, !(label.first == "." && label.dropFirst().allSatisfy(\.isNumber)) else {
      return []
    }
    return [label]
  }

  private static func sortKey(_ lines: [String]) -> String {
    lines.joined(separator: "\n")
  }
}
