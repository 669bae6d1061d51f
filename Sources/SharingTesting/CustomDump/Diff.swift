import SharingCore

/// Describes the difference between two values, or returns `nil` if their dumps are equal.
///
/// Both values are dumped as by ``customDump(_:to:name:indent:maxDepth:)`` and compared
/// structurally. Lines only in `lhs` are marked `-`, lines only in `rhs` are marked `+`, and
/// shared lines are indented by two spaces. Unchanged nested values print collapsed, and
/// runs of unchanged collection elements print as `… (N unchanged)`:
///
/// ```swift
/// diff(
///   [Todo(title: "Milk"), Todo(title: "Eggs"), Todo(title: "Bread")],
///   [Todo(title: "Milk"), Todo(title: "Eggs", isDone: true), Todo(title: "Bread")]
/// )
/// //   [
/// //     [0]: Todo(…),
/// //     [1]: Todo(
/// //       title: "Eggs",
/// // -     isDone: false
/// // +     isDone: true
/// //     ),
/// //     [2]: Todo(…)
/// //   ]
/// ```
///
/// Unlike a dump, a diff never abbreviates long collections, so a change at any index shows.
///
/// Inside ``SharedChangeTracker/assert(_:fileID:filePath:line:column:)``, shared values in
/// `lhs` dump as their expected values and those in `rhs` as their current values, as `==`
/// compares them, so a diff of one shared value with itself shows how it changed:
///
/// ```swift
/// tracker.assert {
///   diff($count, $count)
///   // - #1 0
///   // + #1 1
/// }
/// ```
///
/// > Note: Values that are not equal can still dump identically, for example when a type's
/// > `==` compares state its mirror does not show. `diff` returns `nil` for them.
///
/// - Parameters:
///   - lhs: The first value, usually the expected one.
///   - rhs: The second value, usually the actual one.
///   - format: The markers of changed and shared lines.
/// - Returns: The lines of the diff joined by newlines, or `nil` if the dumps are equal.
public func diff<T>(_ lhs: T, _ rhs: T, format: DiffFormat = .default) -> String? {
  let second = ChangeTracker.withoutAsserting { Dumper.node(for: rhs) }
  return NodeDiff.lines(Dumper.node(for: lhs), second, format: format)?.joined(separator: "\n")
}
