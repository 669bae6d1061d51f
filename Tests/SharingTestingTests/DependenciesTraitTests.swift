import Foundation
import SharingDependencies
import SharingTesting
import Testing

@Suite struct DependenciesTraitTests {
  @Test(.dependency(\.label, "overridden"))
  func overrideIsVisibleInTheTest() {
    @Dependency(\.label) var label
    #expect(label == "overridden")
  }

  @Test(.dependency(\.uuid, .incrementing))
  func overrideReachesChildTasks() async {
    @Dependency(\.uuid) var uuid
    #expect(uuid() == UUID(0))
    let fromTask = await Task {
      @Dependency(\.uuid) var uuid
      return uuid()
    }.value
    #expect(fromTask == UUID(1))
    async let fromAsyncLet = { @Sendable in
      @Dependency(\.uuid) var uuid
      return uuid()
    }()
    #expect(await fromAsyncLet == UUID(2))
  }

  @Test(
    .dependencies {
      $0.date = .constant(Date(timeIntervalSince1970: 1_234_567_890))
      $0.label = "closure"
    }
  )
  func closureOverridesSeveralDependencies() async {
    @Dependency(\.date) var date
    @Dependency(\.label) var label
    #expect(date.now == Date(timeIntervalSince1970: 1_234_567_890))
    #expect(label == "closure")
    let childLabel = await Task {
      @Dependency(\.label) var label
      return label
    }.value
    #expect(childLabel == "closure")
  }

  @Test(.dependencies, arguments: ["first", "second", "third"])
  func eachCaseGetsFreshCachedValues(entry: String) async {
    @Dependency(\.ledger) var ledger
    ledger.write(entry)
    for _ in 0..<20 { await Task.yield() }
    #expect(ledger.all == [entry])
  }

  @Test(.dependency(\.label, "overridden"), arguments: ["first", "second"])
  func overrideTraitAlsoGivesEachCaseFreshValues(entry: String) async {
    @Dependency(\.ledger) var ledger
    ledger.write(entry)
    for _ in 0..<20 { await Task.yield() }
    #expect(ledger.all == [entry])
  }

  @Test(.dependency(\.uuid, .incrementing), arguments: [1, 2, 3])
  func overriddenValueIsCreatedAnewForEachCase(_: Int) {
    @Dependency(\.uuid) var uuid
    #expect(uuid() == UUID(0))
  }

  @Test(
    .dependencies { values in
      values.ledger.write("prepared")
    }
  )
  func closureReadsTheFreshDefaultOfTheRun() {
    @Dependency(\.ledger) var ledger
    #expect(ledger.all == ["prepared"])
  }

  @Test(.dependency(\.label, "outer"), .dependency(\.uuid, .incrementing))
  func severalTraitsCombine() {
    @Dependency(\.label) var label
    @Dependency(\.uuid) var uuid
    #expect(label == "outer")
    #expect(uuid() == UUID(0))
  }

  @Test(.dependency(\.label, "A")) func parallelA() async { await expectLabel("A") }
  @Test(.dependency(\.label, "B")) func parallelB() async { await expectLabel("B") }
  @Test(.dependency(\.label, "C")) func parallelC() async { await expectLabel("C") }
  @Test(.dependency(\.label, "D")) func parallelD() async { await expectLabel("D") }

  private func expectLabel(_ expected: String) async {
    @Dependency(\.ledger) var ledger
    for _ in 0..<100 {
      @Dependency(\.label) var label
      ledger.write(label)
      await Task.yield()
    }
    #expect(Set(ledger.all) == [expected])
    #expect(ledger.all.count == 100)
  }
}

@Suite(.dependency(\.label, "suite"))
struct DependenciesSuiteTraitTests {
  @Test func suiteOverrideReachesEachTest() {
    @Dependency(\.label) var label
    #expect(label == "suite")
  }

  @Test(.dependency(\.label, "test"))
  func testOverrideWinsOverTheSuiteOverride() {
    @Dependency(\.label) var label
    #expect(label == "test")
  }

  @Test(arguments: ["first", "second"])
  func eachCaseOfASuiteGetsFreshCachedValues(entry: String) async {
    @Dependency(\.ledger) var ledger
    ledger.write(entry)
    for _ in 0..<20 { await Task.yield() }
    #expect(ledger.all == [entry])
  }
}

@Suite struct WithTestDependenciesTests {
  @Test func eachCallGetsFreshCachedValues() {
    for run in ["first", "second", "third"] {
      withTestDependencies {
        @Dependency(\.ledger) var ledger
        ledger.write(run)
        #expect(ledger.all == [run])
      }
    }
  }

  @Test func overridesApplyToTheOperation() async {
    let label = await withTestDependencies {
      $0.label = "async"
    } operation: {
      await Task {
        @Dependency(\.label) var label
        return label
      }.value
    }
    #expect(label == "async")
  }
}
