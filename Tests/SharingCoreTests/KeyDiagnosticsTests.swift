import SharingCore
import SharingDependencies
import Testing

/// A key whose identity is given, to use one identity with two value types.
private struct IdentifiedKey<Value: Sendable>: SharedKey {
  let id: String
  let store: TestStore<Value>

  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    TestKey(id, store: store).load(context: context, continuation: continuation)
  }

  func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    TestKey(id, store: store).subscribe(context: context, subscriber: subscriber)
  }

  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    TestKey(id, store: store).save(value, context: context, continuation: continuation)
  }
}

@Suite struct KeyDiagnosticsTests {
  @Test func keyUsedWithTwoValueTypesIsReportedWithBothPlaces() {
    @Shared(IdentifiedKey(id: "mixed", store: TestStore<Int>())) var number = 1
    withKnownIssue {
      @Shared(IdentifiedKey(id: "mixed", store: TestStore<String>())) var text = ""
      #expect(text == "")
    } matching: { issue in
      let description = issue.description
      return description.contains("is used with two value types")
        && description.contains("'Int' at SharingCoreTests/KeyDiagnosticsTests.swift:")
        && description.contains("'String' at SharingCoreTests/KeyDiagnosticsTests.swift:")
    }
    #expect(number == 1)
  }

  @Test func keyUsedWithTwoValueTypesIsReportedOnce() {
    @Shared(IdentifiedKey(id: "mixed", store: TestStore<Int>())) var number = 1
    withKnownIssue {
      for _ in 1...3 {
        @Shared(IdentifiedKey(id: "mixed", store: TestStore<String>())) var text = ""
        _ = text
      }
    }
    _ = number
  }

  @Test func aSecondDeclarationWithAnotherDefaultIsNotReported() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var first = 0
    @Shared(.test("count", store: store)) var second = 10
    @SharedReader(.test("count", store: store)) var third = 20
    #expect(first == 0 && second == 0 && third == 0)
  }

  @Test func aSecondDeclarationsDefaultIsNotEvaluated() {
    let store = TestStore<Int>()
    let evaluations = Locked(0)
    func makeDefault(_ value: Int) -> Int {
      evaluations.withLock { $0 += 1 }
      return value
    }
    @Shared(.test("count", store: store)) var first = makeDefault(0)
    @Shared(.test("count", store: store)) var second = makeDefault(10)
    @SharedReader(.test("count", store: store)) var third = makeDefault(20)
    #expect(evaluations.withLock { $0 } == 1)
    #expect(second == 0 && third == 0)
    _ = first
  }

  @Test func aKeyCarryingItsDefaultIsNotReported() {
    let key = TestKey<Bool>.Default[.test("isOn", store: TestStore<Bool>()), default: true]
    @Shared(key) var first
    @Shared(key) var second
    #expect(first && second)
  }

  @Test func reusingADeclarationIsNotReported() {
    let store = TestStore<Int>()
    func makeShared(_ value: Int) -> Shared<Int> {
      Shared(wrappedValue: value, .test("count", store: store))
    }
    let first = makeShared(1)
    let second = makeShared(2)
    #expect(first.wrappedValue == 1 && second.wrappedValue == 1)
  }
}
