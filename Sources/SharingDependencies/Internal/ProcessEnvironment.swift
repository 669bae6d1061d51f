import Foundation

/// Facts about the running process that decide the dependency context.
struct ProcessEnvironment: Sendable {
  let arguments: [String]
  let variables: [String: String]

  static let current = ProcessEnvironment(
    arguments: ProcessInfo.processInfo.arguments,
    variables: ProcessInfo.processInfo.environment
  )

  /// Whether the process is a test runner, recognised by how `swift test`, `xctest` and
  /// Xcode start one.
  var isTesting: Bool {
    if variables.keys.contains(where: Self.testEnvironmentKeys.contains) { return true }
    if arguments.contains("--testing-library") { return true }
    guard let executable = arguments.first.map({ URL(fileURLWithPath: $0).lastPathComponent })
    else { return false }
    return executable.hasSuffix(".xctest") || executable == "xctest"
      || executable == "swiftpm-testing-helper"
  }

  private static let testEnvironmentKeys: Set<String> = [
    "XCTestBundlePath", "XCTestConfigurationFilePath", "XCTestSessionIdentifier",
  ]
}
