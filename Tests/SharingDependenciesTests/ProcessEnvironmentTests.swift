import Testing

@testable import SharingDependencies

@Suite struct ProcessEnvironmentTests {
  @Test(
    arguments: [
      (["/app/.build/debug/AppPackageTests.xctest"], [:], true),
      (
        ["/app/.build/debug/AppPackageTests.xctest", "--testing-library", "swift-testing"], [:],
        true
      ),
      (["/usr/bin/xctest", "App.xctest"], [:], true),
      (["/usr/libexec/swift/pm/swiftpm-testing-helper"], [:], true),
      (["/usr/local/bin/app"], ["XCTestConfigurationFilePath": "/tmp/x"], true),
      (["/usr/local/bin/app"], [:], false),
      (["/usr/local/bin/app", "serve"], ["HOME": "/root"], false),
    ] as [([String], [String: String], Bool)]
  )
  func detectsTestRunners(arguments: [String], variables: [String: String], expected: Bool) {
    let environment = ProcessEnvironment(arguments: arguments, variables: variables)
    #expect(environment.isTesting == expected)
  }
}
