public import SharingCore

extension Shared: CustomDumpRepresentable {
  /// The shared value, so that dumps and diffs show shared state as the value it holds.
  ///
  /// Inside ``SharedChangeTracker/assert(_:fileID:filePath:line:column:)`` this is the
  /// value's snapshot: the expected value the assertion describes.
  public var customDumpValue: Any { wrappedValue }
}

extension SharedReader: CustomDumpRepresentable {
  /// The shared value, so that dumps and diffs show shared state as the value it holds.
  ///
  /// Inside ``SharedChangeTracker/assert(_:fileID:filePath:line:column:)`` this is the
  /// value's snapshot.
  public var customDumpValue: Any { wrappedValue }
}

/// A property wrapper whose storage a dump labels with the wrapped property's name.
///
/// A struct with `@Shared var stats: Stats` stores the wrapper in a field named `_stats`.
/// Dumps print it as `stats: Stats(…)`, the name the code reads and writes, rather than the
/// name of the storage the compiler synthesised. Other fields keep their names.
///
/// > Note: The storage cannot be told apart from a plain stored `Shared` whose name starts
/// > with an underscore, which therefore also prints without it.
protocol DumpedAsWrappedProperty {}

extension Shared: DumpedAsWrappedProperty {}
extension SharedReader: DumpedAsWrappedProperty {}
