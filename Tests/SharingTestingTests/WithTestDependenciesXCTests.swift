import SharingDependencies
import SharingTesting
import XCTest

/// The XCTest counterpart of the dependency traits: overrides for every test of a case
/// through `invokeTest()`, and fresh values per run with `withTestDependencies`.
final class WithTestDependenciesXCTests: XCTestCase {
  override func invokeTest() {
    withTestDependencies {
      $0.label = "xctest"
    } operation: {
      super.invokeTest()
    }
  }

  func testOverrideFromInvokeTestIsVisibleInEachTest() {
    @Dependency(\.label) var label
    XCTAssertEqual(label, "xctest")
  }

  func testEachRunOfALoopGetsFreshCachedValues() {
    for run in ["first", "second", "third"] {
      withTestDependencies {
        @Dependency(\.ledger) var ledger
        ledger.write(run)
        XCTAssertEqual(ledger.all, [run])
      }
    }
  }

  func testNestedOverridesKeepTheOuterOnes() {
    withTestDependencies {
      $0.uuid = .incrementing
    } operation: {
      @Dependency(\.label) var label
      @Dependency(\.uuid) var uuid
      XCTAssertEqual(label, "xctest")
      XCTAssertEqual(uuid(), UUID(0))
    }
  }

  func testAsyncOperationSeesOverridesInChildTasks() async {
    let label = await withTestDependencies {
      $0.label = "async"
    } operation: {
      await Task {
        @Dependency(\.label) var label
        return label
      }.value
    }
    XCTAssertEqual(label, "async")
  }
}
