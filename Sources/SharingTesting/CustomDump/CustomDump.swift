/// Dumps a value's contents to standard output in a readable, deterministic form.
///
/// ```swift
/// customDump(Stats(count: 1, minCount: 0))
/// // Stats(
/// //   count: 1,
/// //   minCount: 0
/// // )
/// ```
///
/// See ``customDump(_:to:name:indent:maxDepth:)`` for the format.
///
/// - Parameters:
///   - value: The value to dump.
///   - name: A label printed before the value.
///   - indent: The number of spaces each line is indented by.
///   - maxDepth: How many levels of nested structs, collections and payloads are printed;
///     deeper ones print elided, as `Stats(…)`.
/// - Returns: The value, unchanged.
@discardableResult
public func customDump<T>(
  _ value: T,
  name: String? = nil,
  indent: Int = 0,
  maxDepth: Int = .max
) -> T {
  var output = ""
  customDump(value, to: &output, name: name, indent: indent, maxDepth: maxDepth)
  print(output)
  return value
}

/// Dumps a value's contents to a text stream in a readable, deterministic form.
///
/// Structs and classes print one field per line, collections one element per line:
///
/// ```swift
/// var output = ""
/// customDump(Todo(title: "Milk", tags: ["errand"]), to: &output)
/// // Todo(
/// //   title: "Milk",
/// //   tags: [
/// //     [0]: "errand"
/// //   ]
/// // )
/// ```
///
/// The format:
/// - Type names drop their module and keep generic arguments: `Outer.Inner`,
///   `Pair<Int, String?>`. A struct or class without fields prints `Stats()`; a class met
///   again while dumping its own contents prints `Node(↩︎)`.
/// - An enum case prints its type only at the root of the dump (`Tab.counter`) and a
///   leading dot when nested (`currentTab: .counter`). Payloads follow in parentheses, on one
///   line when they fit on one: `.loaded(id: 1, name: "Blob")`. `Optional` prints `nil` or
///   its wrapped value.
/// - Strings are quoted with escapes; a string with line breaks prints as a `"""` block.
///   `Date`, `URL`, `UUID` and `Data` print as `Date(2009-02-13T23:31:30.000Z)`,
///   `URL(https://example.com)`, `UUID(…)` and `Data(12 bytes)`.
/// - Arrays print `[0]: value` per element and `[]` when empty; sets print `Set([…])` and
///   dictionaries `key: value`, both sorted by the dumps of their elements or keys, `[:]` when
///   empty. Tuples print as `(label: value, value)` spread over lines.
/// - A collection with more than 50 elements prints its first 50 and `… (N more)`.
/// - A `CustomReflectable` value whose mirror describes another type prints as that type.
/// - `Shared` and `SharedReader` print as their value after the number of their reference,
///   as swift-custom-dump prints swift-sharing's: `_count: #1 0`, and `#1 Int(↩︎)` where the
///   same reference is met again (references are numbered per value type).
/// - ``CustomDumpStringConvertible``, ``CustomDumpRepresentable`` and
///   ``CustomDumpReflectable`` take precedence over all of the above.
///
/// - Parameters:
///   - value: The value to dump.
///   - target: The stream to write to. No trailing newline is written.
///   - name: A label printed before the value, as `name: value`.
///   - indent: The number of spaces each line is indented by.
///   - maxDepth: How many levels of nested structs, collections and payloads are printed;
///     deeper ones print elided, as `Stats(…)`.
/// - Returns: The value, unchanged.
@discardableResult
public func customDump<T>(
  _ value: T,
  to target: inout some TextOutputStream,
  name: String? = nil,
  indent: Int = 0,
  maxDepth: Int = .max
) -> T {
  let node = Dumper.node(for: value, maxDepth: maxDepth, elementLimit: Dumper.defaultElementLimit)
  let child = DumpChild(label: name.map { [$0] } ?? [], node: node)
  let padding = String(repeating: " ", count: max(indent, 0))
  let lines = child.lines(comma: false).map { $0.isEmpty ? $0 : padding + $0 }
  target.write(lines.joined(separator: "\n"))
  return value
}

extension String {
  /// Creates a string from a value's dump.
  ///
  /// ```swift
  /// String(customDumping: [1, 2])
  /// // [
  /// //   [0]: 1,
  /// //   [1]: 2
  /// // ]
  /// ```
  ///
  /// The format is described at ``customDump(_:to:name:indent:maxDepth:)``.
  ///
  /// - Parameter value: The value to dump.
  public init(customDumping value: Any) {
    self.init()
    customDump(value, to: &self)
  }
}
