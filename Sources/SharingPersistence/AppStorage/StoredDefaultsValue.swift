import Foundation

/// A comparable snapshot of what user defaults hold for a key, to notice that it changed: the
/// value as a binary property list, whatever its type, so that one comparison serves them all.
struct StoredDefaultsValue: Equatable {
  /// The value's bytes; `nil` for no value.
  private let bytes: Data?

  /// No value for the key.
  static let missing = StoredDefaultsValue(nil)

  init(_ object: Any?) {
    bytes = object.map { object in
      // NB: A value that is not a property list (which Foundation would not write) is
      //     compared by its description.
      (try? PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0))
        ?? Data(String(reflecting: object).utf8)
    }
  }

  /// Whether the value is small enough (4 KB at most, encoded) to read often.
  var isSmall: Bool {
    (bytes?.count ?? 0) <= 4_096
  }
}
