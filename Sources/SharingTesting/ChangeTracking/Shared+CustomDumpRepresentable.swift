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

/// A shared value, which a dump marks with the identity of its reference, as swift-custom-dump
/// marks the shared values of swift-sharing: `#1 0` the first time a reference is met, and
/// `#1 Int(↩︎)` when it is met again.
protocol DumpedWithIdentity<Value>: CustomDumpRepresentable {
  /// The type of the value, which names a repeat.
  associatedtype Value
  var referenceIdentity: ObjectIdentifier { get }
}

extension Shared: DumpedWithIdentity {}

extension SharedReader: DumpedWithIdentity {}
