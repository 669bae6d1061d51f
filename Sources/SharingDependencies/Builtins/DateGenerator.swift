public import Foundation

/// A dependency that generates the current date.
///
/// ```swift
/// @Dependency(\.date.now) var now
/// ```
///
/// In tests it is unimplemented: reading it reports an issue until a test overrides it,
/// for example with ``constant(_:)``.
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date

  /// Creates a generator from a closure.
  ///
  /// - Parameter generate: A closure that returns the current date.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date.
  public var now: Date { generate() }

  /// Returns the current date.
  public func callAsFunction() -> Date { generate() }

  /// A generator that always returns the given date.
  ///
  /// - Parameter date: The date to return.
  public static func constant(_ date: Date) -> Self {
    Self { date }
  }
}

extension DependencyValues {
  /// The current date. See ``DateGenerator``.
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}

private enum DateGeneratorKey: DependencyKey {
  static let liveValue = DateGenerator { Date() }
  static var testValue: DateGenerator {
    DateGenerator {
      reportIssue(
        #"Unimplemented: '@Dependency(\.date)'. Override it in this test, e.g. with '.constant'."#
      )
      return Date()
    }
  }
}
