import Foundation
import SharingDependencies

/// A reference type whose contents show whether a cached value was shared between runs.
final class Ledger: Sendable {
  private let entries = Locked<[String]>([])

  func write(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
}

private enum LedgerKey: TestDependencyKey {
  static var testValue: Ledger { Ledger() }
}

private enum LabelKey: TestDependencyKey {
  static let testValue = "default"
}

extension DependencyValues {
  /// A fresh ledger for every cache scope.
  var ledger: Ledger {
    get { self[LedgerKey.self] }
    set { self[LedgerKey.self] = newValue }
  }

  /// A plain value to override.
  var label: String {
    get { self[LabelKey.self] }
    set { self[LabelKey.self] = newValue }
  }
}

extension UUID {
  /// The UUID that `UUIDGenerator.incrementing` generates `count`-th, from zero.
  init(_ count: Int) {
    self.init(uuidString: "00000000-0000-0000-0000-\(String(format: "%012x", count))")!
  }
}
