import Foundation

extension String {
  /// The string without white space at either end.
  var trimmingWhitespace: String {
    trimmingCharacters(in: .whitespaces)
  }
}
