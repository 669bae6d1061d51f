public import Foundation
import Synchronization

/// A dependency that generates UUIDs.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// let id = uuid()
/// ```
///
/// In tests it is unimplemented: calling it reports an issue until a test overrides it,
/// for example with ``incrementing``.
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// Creates a generator from a closure.
  ///
  /// - Parameter generate: A closure that returns a new UUID.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// Returns a new UUID.
  public func callAsFunction() -> UUID { generate() }

  /// A generator that always returns the given UUID.
  ///
  /// - Parameter uuid: The UUID to return.
  public static func constant(_ uuid: UUID) -> Self {
    Self { uuid }
  }

  /// A generator of sequential UUIDs: `UUID(0)` (`00000000-0000-0000-0000-000000000000`),
  /// then `UUID(1)`, `UUID(2)`, and so on (see ``FoundationEssentials/UUID/init(_:)``).
  public static var incrementing: Self {
    let counter = Atomic<Int>(0)
    return Self { UUID(counter.add(1, ordering: .relaxed).oldValue) }
  }
}

extension DependencyValues {
  /// A generator of UUIDs. See ``UUIDGenerator``.
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}

private enum UUIDGeneratorKey: DependencyKey {
  static let liveValue = UUIDGenerator { UUID() }
  static var testValue: UUIDGenerator {
    UUIDGenerator {
      reportIssue(
        #"Unimplemented: '@Dependency(\.uuid)'. Override it in this test, e.g. with '.incrementing'."#
      )
      return UUID()
    }
  }
}
