import SharingDependencies

/// A reference type whose identity shows whether a cached value was shared.
final class Notebook: Sendable {
  private let entries = Locked<[String]>([])

  func write(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
}

enum NotebookKey: TestDependencyKey {
  static var testValue: Notebook { Notebook() }
}

enum GreetingKey: DependencyKey {
  static let liveValue = "live"
  static let previewValue = "preview"
  static let testValue = "test"
}

/// A key that forgot its test value.
enum LiveOnlyKey: DependencyKey {
  static let liveValue = 42
}

/// A key that has no live value.
enum TestOnlyKey: TestDependencyKey {
  static let testValue = "test only"
}

/// A key whose value is optional, with a default that is not `nil`.
enum NicknameKey: DependencyKey {
  static let liveValue: String? = "live"
  static let testValue: String? = "test"
}

enum PreparedKey: DependencyKey {
  static let liveValue = "live"
  static let testValue = "default"
}

extension DependencyValues {
  var nickname: String? {
    get { self[NicknameKey.self] }
    set { self[NicknameKey.self] = newValue }
  }

  var notebook: Notebook {
    get { self[NotebookKey.self] }
    set { self[NotebookKey.self] = newValue }
  }
  var greeting: String {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }
  var liveOnly: Int { self[LiveOnlyKey.self] }
  var testOnly: String { self[TestOnlyKey.self] }
  var prepared: String {
    get { self[PreparedKey.self] }
    set { self[PreparedKey.self] = newValue }
  }
}

/// A model that reads its dependencies when used, like an app's feature model.
struct GreeterModel: Sendable {
  @Dependency(\.greeting) var greeting
  @Dependency(GreetingKey.self) var greetingByType
}
