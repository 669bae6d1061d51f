import SharingCore
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

  @Test func keyUsedWithTwoDefaultsIsReportedWithBothPlaces() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var first = 0
    expectDefaultsReport {
      @Shared(.test("count", store: store)) var second = 10
      #expect(second == 0)
    } matching: { issue in
      let description = issue.description
      return description.contains(#"The key .test("count") is used with two defaults"#)
        && description.contains("0 at SharingCoreTests/KeyDiagnosticsTests.swift:")
        && description.contains("10 at SharingCoreTests/KeyDiagnosticsTests.swift:")
    }
    _ = first
  }

  @Test func keyUsedWithTheSameDefaultEverywhereIsNotReported() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var first = 0
    @Shared(.test("count", store: store)) var second = 0
    @SharedReader(.test("count", store: store)) var third = 0
    #expect(first == second && second == third)
  }

  @Test func aLaterDefaultThatAgreesIsEvaluatedAtMostOnce() {
    let store = TestStore<Int>()
    var evaluations = 0
    func makeDefault() -> Int {
      evaluations += 1
      return 0
    }
    @Shared(.test("count", store: store)) var first = makeDefault()
    @Shared(.test("count", store: store)) var second = makeDefault()
    #expect(evaluations <= 2)
    _ = (first, second)
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

@Suite struct NondeterministicDefaultTests {
  @Test func defaultsThatDifferFromThemselvesAreNotReported() {
    let store = TestStore<Double>()
    @Shared(.test("startedAt", store: store)) var first = Double.random(in: 0..<1)
    @Shared(.test("startedAt", store: store)) var second = Double.random(in: 0..<1)
    #expect(first == second)
  }
}
