/// A command line that does not fit the usage; the command exits with ``ExitStatus/usage``.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, for the user, such as `Unknown option '--verbose'.`
  public let description: String

  /// Creates the error.
  ///
  /// - Parameter description: What is wrong, as one or more sentences for the user.
  public init(_ description: String) {
    self.description = description
  }
}
