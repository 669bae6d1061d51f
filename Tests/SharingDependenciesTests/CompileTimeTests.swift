import Foundation
import SharingDependencies

// Pins how the public API reads at call sites; compiling is the test.

private func synchronousOverrideReturnsAValue() -> Int {
  withDependencies {
    $0.greeting = "x"
  } operation: {
    1
  }
}

private func asynchronousOverrideAwaitsTheOperation() async -> Int {
  await withDependencies {
    $0.greeting = "x"
  } operation: {
    await Task.yield()
    return 1
  }
}

private func synchronousOverrideInsideAsyncContext() async {
  withDependencies {
    $0.greeting = "x"
  } operation: {
  }
}

private func dependencyWrappersInferTheirValueType() {
  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid
  @Dependency(GreetingKey.self) var greeting
  _ = (now, uuid(), greeting)
}

private func uuidFromAnIntegerLiteralReadsAsInSwiftDependencies() -> [UUID] {
  [UUID(0), UUID(1)]
}
