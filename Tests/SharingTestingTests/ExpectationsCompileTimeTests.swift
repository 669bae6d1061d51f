import SharingTesting
import Testing

/// Pins overload resolution: these tests pass by compiling.
@Suite struct ExpectationsCompileTimeTests {
  @Test func synchronousOperationNeedsNoAwaitInAsyncContext() async {
    var count = 0
    expectDifference(count) {
      count += 1
    } changes: {
      $0 += 1
    }
    expectDifference(count) { $0 += 0 }
  }

  @MainActor
  @Test func asynchronousOperationIsAwaited() async {
    let box = Box()
    await expectDifference(box.count) {
      await box.increment()
    } changes: {
      $0 += 1
    }
  }
}

@MainActor
private final class Box {
  var count = 0
  func increment() async { count += 1 }
}
