import SharingCore
import Testing

@Suite struct PersistedSharedTests {
  @Test func defaultIsUsedWhenTheStoreHasNoValue() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 10
    #expect(count == 10)
    #expect(store.loadCount == 1)
  }

  @Test func storedValueWinsOverTheDefault() {
    let store = TestStore(5)
    @Shared(.test("count", store: store)) var count = 10
    #expect(count == 5)
  }

  @Test func aLaterUseKeepsTheFirstUsesValue() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var first = 1
    $first.withLock { $0 = 5 }
    @Shared(.test("count", store: store)) var second = 1
    #expect(second == 5)
  }

  @Test func everyWriteIsSavedInOrderWithTheLatestLast() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 0
    for _ in 1...3 { $count.withLock { $0 += 1 } }
    #expect(store.savedValues == [1, 2, 3])
    #expect(store.saveContexts == [.didSet, .didSet, .didSet])
  }

  @Test func writesThroughDerivedValuesAreSaved() {
    let store = TestStore<Stats>()
    @Shared(.test("stats", store: store)) var stats = Stats()
    $stats.count.withLock { $0 = 4 }
    #expect(store.value?.count == 4)
  }

  @Test func externalChangesArePlayedBackWithoutBeingSavedBack() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 0
    store.externalChange(42)
    #expect(count == 42)
    #expect(store.savedValues.isEmpty)
  }

  @Test func externalRemovalRestoresTheDefault() {
    let store = TestStore(3)
    @Shared(.test("count", store: store)) var count = 0
    #expect(count == 3)
    store.externalChange(nil)
    #expect(count == 0)
  }

  @Test func explicitSaveIsUserInitiated() async throws {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 7
    try await $count.save()
    #expect(store.saveContexts == [.userInitiated])
    #expect(store.value == 7)
  }

  @Test func saveErrorIsExposedAndClearedByALaterSuccess() async throws {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 0
    store.setSaveError(StoreError(message: "disk full"))
    $count.withLock { $0 = 1 }
    #expect(($count.saveError as? StoreError)?.message == "disk full")
    #expect(count == 1)
    await #expect(throws: StoreError.self) { try await $count.save() }
    store.setSaveError(nil)
    $count.withLock { $0 = 2 }
    #expect($count.saveError == nil)
  }

  @Test func failingLoadSetsLoadErrorAndKeepsTheDefault() {
    let store = TestStore(9)
    store.setLoadBehavior(.failing(StoreError(message: "corrupt")))
    @Shared(.test("count", store: store)) var count = 1
    #expect(count == 1)
    #expect(($count.loadError as? StoreError)?.message == "corrupt")
  }

  @Test func userInitiatedLoadThrowsAndClearsOnSuccess() async throws {
    let store = TestStore(9)
    @Shared(.test("count", store: store)) var count = 1
    store.setLoadBehavior(.failing(StoreError(message: "offline")))
    await #expect(throws: StoreError.self) { try await $count.load() }
    #expect($count.loadError != nil)
    store.setLoadBehavior(.immediate)
    store.externalChange(12)
    try await $count.load()
    #expect($count.loadError == nil)
    #expect(count == 12)
  }

  @Test func deferredLoadReportsLoadingUntilResumed() async throws {
    let store = TestStore(5)
    store.setLoadBehavior(.deferred)
    @Shared(.test("count", store: store)) var count = 0
    #expect($count.isLoading)
    #expect(count == 0)
    store.completeLoads()
    #expect(!$count.isLoading)
    #expect(count == 5)
  }

  @Test func subscriberErrorsSetLoadErrorAndValuesClearIt() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 0
    store.externalError(StoreError(message: "bad data"))
    #expect(($count.loadError as? StoreError)?.message == "bad data")
    #expect(count == 0)
    store.externalChange(3)
    #expect($count.loadError == nil)
    #expect(count == 3)
  }

  @Test func subscriberLoadingStateIsExposed() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 0
    store.externalLoading(true)
    #expect($count.isLoading)
    store.externalLoading(false)
    #expect(!$count.isLoading)
  }

  @Test func continuationResumedTwiceReportsAnIssue() {
    let store = TestStore<Int>()
    store.setLoadBehavior(.resumingTwice)
    withKnownIssue {
      @Shared(.test("count", store: store)) var count = 4
      #expect(count == 4)
    } matching: { issue in
      issue.description.contains("resumed more than once")
        && issue.description.contains(#".test("count")"#)
    }
  }

  @Test func aLeakedLoadContinuationIsReportedAndLoadReturnsWithoutThrowing() async throws {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 4
    $count.withLock { $0 = 42 }
    store.setLoadBehavior(.neverResuming)
    try await withKnownIssue {
      try await $count.load()
    } matching: { issue in
      issue.description.contains(#"'.test("count")' leaked its continuation"#)
    }
    #expect(!$count.isLoading)
    #expect(count == 42)
    #expect($count.loadError == nil)
  }

  @Test func aLeakedSaveContinuationIsReportedAndSaveReturnsWithoutThrowing() async throws {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 4
    store.setDropsSaves(true)
    try await withKnownIssue {
      try await $count.save()
    } matching: { issue in
      issue.description.contains(#"'.test("count")' leaked its continuation"#)
    }
    #expect($count.saveError == nil)
    #expect(count == 4)
  }

  @Test func explicitLoadThatFindsNothingKeepsTheCurrentValue() async throws {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 0
    $count.withLock { $0 = 5 }
    store.setLoadBehavior(.findingNothing)
    try await $count.load()
    #expect(count == 5)
  }

  @Test func aSuccessfulWriteAndSaveClearsALoadErrorLeftByASubscriber() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 0
    store.externalError(StoreError(message: "bad data"))
    #expect($count.loadError != nil)
    $count.withLock { $0 = 1 }
    #expect($count.loadError == nil)
    #expect($count.saveError == nil)
  }

  @Test func keyWithDefaultExposesItsInitialValue() {
    let key = TestKey<Int>.Default[.test("count", store: TestStore<Int>()), default: 7]
    #expect(key.initialValue == 7)
  }

  @Test func requireThrowsWhenTheStoreHasNoValue() async {
    let store = TestStore<Int>()
    await #expect(throws: SharedValueNotFoundError.self) {
      _ = try await Shared(require: .test("missing", store: store))
    }
  }

  @Test func requireThrowsTheLoadError() async {
    let store = TestStore(1)
    store.setLoadBehavior(.failing(StoreError(message: "denied")))
    await #expect(throws: StoreError(message: "denied")) {
      _ = try await Shared(require: .test("count", store: store))
    }
  }

  @Test func requireReturnsTheStoredValue() async throws {
    let store = TestStore(8)
    let count = try await Shared(require: .test("count", store: store))
    #expect(count.wrappedValue == 8)
  }

  @Test func optionalKeyDefaultsToNil() {
    let store = TestStore<String?>()
    @Shared(.test("name", store: store)) var name: String?
    #expect(name == nil)
    $name.withLock { $0 = "Blob" }
    #expect(store.value == .some("Blob"))
  }

  @Test func keyWithDefaultNeedsNoInitialValue() {
    let store = TestStore<Bool>()
    let key = TestKey<Bool>.Default[.test("isOn", store: store), default: true]
    @Shared(key) var isOn
    #expect(isOn)
    @Shared(key) var sameKey = false
    #expect(sameKey)
  }

  @Test func explicitDefaultOverridesTheKeysDefault() {
    let store = TestStore<Bool>()
    @Shared(wrappedValue: false, TestKey<Bool>.Default[.test("isOn", store: store), default: true])
    var isOn
    #expect(!isOn)
  }

  @Test func loadingANewKeySwitchesOnlyThisValueAndItsCopies() async throws {
    let first = TestStore(1)
    let second = TestStore(2)
    @Shared(.test("a", store: first)) var a = 0
    @Shared(.test("a", store: first)) var alsoA = 0
    let copy = $a
    try await $a.load(.test("b", store: second))
    #expect(a == 2)
    #expect(copy.wrappedValue == 2)
    #expect(alsoA == 1)
    $a.withLock { $0 = 20 }
    #expect(second.value == 20)
    #expect(first.value == 1)
  }

  @Test func readerKeyLoadsAndSubscribes() async throws {
    let store = TestStore(3)
    @SharedReader(.testReader("count", store: store)) var count = 0
    #expect(count == 3)
    store.externalChange(4)
    #expect(count == 4)
    try await $count.load()
    #expect(store.loadCount == 2)
  }

  @Test func writableKeyUsedAfterAReaderSavesThroughTheSameReference() {
    let store = TestStore<Int>()
    @SharedReader(.testReader("count", store: store)) var reader = 0
    @Shared(.test("count", store: store)) var writer = 0
    $writer.withLock { $0 = 5 }
    #expect(reader == 5)
    #expect(store.value == 5)
  }
}
