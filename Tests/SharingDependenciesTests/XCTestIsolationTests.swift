import SharingDependencies
import XCTest

/// XCTest runs these one after the other; each must start with a fresh cached notebook.
final class XCTestIsolationTests: XCTestCase {
  func testFirstCaseGetsAFreshNotebook() {
    expectFreshNotebook(writing: "first")
  }

  func testSecondCaseGetsAFreshNotebook() {
    expectFreshNotebook(writing: "second")
  }

  private func expectFreshNotebook(writing entry: String) {
    @Dependency(\.notebook) var notebook
    XCTAssertEqual(notebook.all, [])
    notebook.write(entry)
    @Dependency(\.notebook) var again
    XCTAssertEqual(again.all, [entry])
  }
}
