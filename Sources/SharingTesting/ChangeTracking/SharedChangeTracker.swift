import SharingCore
import SharingDependencies

/// Tracks changes to shared state, and asserts exhaustively on how it changed.
///
/// A ``/SharingCore/Shared`` value is a reference: a copy taken before an operation sees the
/// operation's writes, so there is no "before" to compare with. A tracker keeps one. While
/// ``track(_:fileID:filePath:line:column:)`` runs, the first write to each shared value
/// snapshots its old value; inside ``assert(_:fileID:filePath:line:column:)`` shared values
/// read and write those snapshots, so the test describes the change it expects, and every
/// snapshot that still differs from the current value when the assertion ends is reported
/// with a diff:
///
/// ```swift
/// let tracker = SharedChangeTracker()
/// tracker.track {
///   model.incrementButtonTapped()   // $stats.withLock { $0.increment() }
/// }
/// tracker.assert {
///   model.$stats.withLock { $0.increment() }   // incremental …
///   // model.$stats.withLock { $0 = Stats(count: 1, maxCount: 1, numberOfCounts: 1) }
/// }
/// ```
///
/// A change left out of the assertion fails the test:
///
/// ```
/// Shared<Stats> was not expected to change, but a change occurred: …
///
///     Stats(
///   −   count: 0,
///   +   count: 1,
///   …
///     )
///
/// (Expected: −, Actual: +)
/// ```
///
/// A tracker that goes away holding changes it tracked but neither asserted nor reset
/// reports each of them, as swift-sharing's tracker does:
///
/// ```
/// Tracked unasserted changes to 'Shared<Int>(value: 1)': 0 → 1
/// ```
///
/// Tracking covers child tasks of the operation. Shared values that are written when no
/// tracker runs take no snapshot, so tracking costs nothing outside tests.
public final class SharedChangeTracker: Sendable {
  let base = ChangeTracker()
  private let reportsUnassertedChanges: Bool
  /// Where changes were last tracked: where unasserted ones are reported.
  private let trackingSite = Locked<CallSite?>(nil)

  /// Creates a tracker that has recorded no changes.
  ///
  /// - Parameter reportUnassertedChanges: Whether changes tracked but neither asserted nor
  ///   reset are reported when the tracker goes away. By default they are in tests.
  public init(reportUnassertedChanges: Bool = isTesting) {
    self.reportsUnassertedChanges = reportUnassertedChanges
  }

  deinit {
    guard reportsUnassertedChanges else { return }
    let site = trackingSite.withLock { $0 }
    for message in unassertedChanges() {
      if let site { site.report(message) } else { reportIssue(message) }
    }
  }

  /// Whether a shared value was written while tracking, since the tracker was created or
  /// last asserted or reset.
  public var hasChanges: Bool { base.hasChanges }

  /// Runs an operation, snapshotting each shared value it writes before the first write.
  ///
  /// - Parameters:
  ///   - operation: The work to track.
  ///   - fileID: The file ID of the call site.
  ///   - filePath: The file path of the call site.
  ///   - line: The line of the call site.
  ///   - column: The column of the call site.
  /// - Returns: The result of `operation`.
  @discardableResult
  public func track<R>(
    _ operation: () throws -> R,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) rethrows -> R {
    trackingSite.withLock {
      $0 = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return try base.track(operation)
  }

  /// Runs an asynchronous operation, snapshotting each shared value it writes before the
  /// first write.
  ///
  /// ```swift
  /// await tracker.track {
  ///   await model.refreshButtonTapped()
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: The actor the operation runs on; inferred from the caller.
  ///   - operation: The work to track.
  ///   - fileID: The file ID of the call site.
  ///   - filePath: The file path of the call site.
  ///   - line: The line of the call site.
  ///   - column: The column of the call site.
  /// - Returns: The result of `operation`.
  // Disfavored so that a synchronous operation in an async context needs no `await`.
  @_disfavoredOverload
  @discardableResult
  public func track<R>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> R,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async rethrows -> R {
    trackingSite.withLock {
      $0 = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return try await base.track(operation)
  }

  /// Describes the expected changes to shared state, and reports every change that does
  /// not match.
  ///
  /// Inside `expectedChanges`, shared values read and write their snapshots: apply the
  /// changes you expect the tracked operation to have made, either incrementally
  /// (`$stats.withLock { $0.increment() }`) or absolutely
  /// (`$stats.withLock { $0 = Stats(count: 1) }`). When it returns, each shared value whose
  /// expected value differs from its current one is reported through
  /// ``/SharingDependencies/reportIssue(_:fileID:filePath:line:column:)`` with a diff
  /// (`−` expected, `+` actual). Then the snapshots are forgotten, so the next assertion
  /// starts from the current values.
  ///
  /// If `expectedChanges` throws, nothing is reported and the error is rethrown.
  ///
  /// - Parameters:
  ///   - expectedChanges: A closure that applies the expected changes to shared values.
  ///   - fileID: The file ID of the call site.
  ///   - filePath: The file path of the call site.
  ///   - line: The line of the call site.
  ///   - column: The column of the call site.
  public func assert(
    _ expectedChanges: () throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) rethrows {
    defer { base.reset() }
    let untouched = expectedDumps()
    try base.assert(expectedChanges)
    for failure in failures(untouched: untouched) {
      reportIssue(failure, fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }

  /// Forgets every snapshot, accepting the current values of shared state as they are.
  public func reset() {
    base.reset()
  }

  // MARK: Reporting

  /// A message for every change still tracked, worded as swift-sharing's:
  /// `Tracked unasserted changes to 'Shared<Int>(value: 1)': 0 → 1`.
  func unassertedChanges() -> [String] {
    base.allSnapshots
      .map { snapshot in
        let current = String(reflecting: snapshot.current())
        return """
          Tracked unasserted changes to '\(Self.name(of: snapshot, value: current))': \
          \(String(reflecting: snapshot.value)) → \(current)
          """
      }
      .sorted()
  }

  /// The dumps of the expected values, per shared root, before an assertion changes them.
  func expectedDumps() -> [ObjectIdentifier: DumpNode] {
    base.assert {
      Dictionary(
        uniqueKeysWithValues: base.allSnapshots.map { ($0.id, Dumper.node(for: $0.value)) }
      )
    }
  }

  /// A failure message for every shared value whose expected value differs from its
  /// current one, ordered by name.
  ///
  /// - Parameter untouched: The expected dumps before the assertion: a value whose dump is
  ///   unchanged was not asserted on at all.
  func failures(untouched: [ObjectIdentifier: DumpNode]) -> [String] {
    base.allSnapshots
      .compactMap { snapshot -> (name: String, message: String)? in
        let name = Self.name(of: snapshot)
        let current = snapshot.current()
        let comparison = DumpComparison(expected: snapshot.value, actual: current, tracker: base) {
          (snapshot.value as? any Equatable).map { isEqual($0, current) }
        }
        guard !comparison.isEqual else { return nil }
        let isUnasserted = untouched[snapshot.id] == comparison.expected
        let message = comparison.message(
          title: isUnasserted
            ? "\(name) was not expected to change, but a change occurred"
            : "A change to \(name) does not match expectation",
          undetected: """
            \(name) does not equal its expected value, but no difference was detected in \
            their dumps.
            """
        )
        return (name, message)
      }
      .sorted { ($0.name, $0.message) < ($1.name, $1.message) }
      .map(\.message)
  }

  /// `Shared<Int>(<key>)` for a persisted value; for a plain one `Shared<Int>`, or
  /// `Shared<Int>(value: 1)` given its `value`.
  private static func name(of snapshot: ChangeTracker.Snapshot, value: String? = nil) -> String {
    let type = "Shared<\(TypeName.of(Swift.type(of: snapshot.value)))>"
    guard let subject = snapshot.key ?? value.map({ "value: \($0)" }) else { return type }
    return "\(type)(\(subject))"
  }
}

/// Whether `second` is a `T` equal to `first`; a value of another type is unequal.
private func isEqual<T: Equatable>(_ first: T, _ second: Any) -> Bool {
  first == second as? T
}
