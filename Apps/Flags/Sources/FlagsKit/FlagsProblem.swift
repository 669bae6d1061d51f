import Foundation
import SharingPostgres

/// Why the flags could not be read or changed, told in one line, with what to do about it.
///
/// ```swift
/// if let error = flags.loadError {
///   print(FlagsProblem(error, table: "sharing_values"))
///   // "beta" in row 'feature-flags' of table 'sharing_values' is not true or false.
///   // Correct the row, or remove every flag with 'flags reset' (the row is then kept as
///   // 'feature-flags.corrupt-<time>').
/// }
/// ```
///
/// libpq's own messages span lines (`…failed: Connection refused` then a tab-indented hint);
/// they are joined into one.
public struct FlagsProblem: Error, Equatable, CustomStringConvertible {
  /// The line for the user.
  public let description: String

  /// Describes the error the flags failed to load or save with.
  ///
  /// - Parameters:
  ///   - error: The `loadError` or `saveError`.
  ///   - table: The table holding the flags.
  public init(_ error: any Error, table: String) {
    switch error {
    case let error as PostgresDecodingError:
      description = """
        \(Self.place(of: error.underlying, in: "row '\(error.key)' of table '\(table)'")). \
        Correct the row, or remove every flag with 'flags reset' (the row is then kept as \
        '\(error.key).corrupt-<time>').
        """
    case let error as PostgresError:
      description = Self.oneLine(error.message)
    default:
      description = Self.oneLine("\(error)")
    }
  }

  /// What is wrong in the row: `"beta" in row 'feature-flags' of table 't' is not true or
  /// false`.
  private static func place(of error: any Error, in row: String) -> String {
    switch error as? DecodingError {
    case .typeMismatch(_, let context)? where context.codingPath.count == 1,
      .valueNotFound(_, let context)? where context.codingPath.count == 1:
      "\"\(context.codingPath[0].stringValue)\" in \(row) is not true or false"
    default:
      "\(row) is not a JSON object of flags that are true or false"
    }
  }

  /// The lines of a message as one: each line trimmed, and a line that ends a sentence
  /// without punctuation, before one that starts with a capital, ended with a period.
  private static func oneLine(_ message: String) -> String {
    let lines = message.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    return zip(lines, lines.dropFirst().map(Optional.some) + [nil]).map { line, next in
      let endsSentence = next?.first?.isUppercase == true && !".?!:;".contains(line.last ?? ".")
      return endsSentence ? line + "." : line
    }
    .joined(separator: " ")
  }
}
