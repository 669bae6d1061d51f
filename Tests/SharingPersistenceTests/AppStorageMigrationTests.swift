import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import TestSupport
import Testing

/// Versioned `Codable` values in user defaults.
@Suite struct AppStorageMigrationTests {
  @Dependency(\.defaultAppStorage) var store
  let runs = Locked(0)

  var layoutKey: AppStorageKey<Grid> {
    .appStorage(
      "layout",
      version: 2,
      migrations: [
        .from(1, decoding: GridV1.self) { [runs] old in
          runs.withLock { $0 += 1 }
          return Grid(columns: old.isCompact ? 1 : 3)
        }
      ]
    )
  }

  var averageKey: AppStorageKey<Average> {
    .appStorage(
      "average",
      version: 2,
      migrations: [.from(1, decoding: Average.Tally.self) { Average(value: $0.total / $0.count) }]
    )
  }

  @Test func version1IsMigratedOnceAndWrittenBack() throws {
    store.set(bytes(#"{"isCompact":true}"#), forKey: "layout")
    do {
      @Shared(layoutKey) var layout = Grid(columns: 2)
      #expect(layout == Grid(columns: 1))
      #expect($layout.loadError == nil)
    }
    #expect(runs.withLock { $0 } == 1)
    let stored = try #require(store.data(forKey: "layout"))
    #expect(text(stored) == #"{"$version":2,"value":{"columns":1}}"#)

    @Shared(layoutKey) var layout = Grid(columns: 2)
    #expect(layout == Grid(columns: 1))
    #expect(runs.withLock { $0 } == 1)
  }

  @Test func changesAreStoredAtTheCurrentVersion() throws {
    @Shared(layoutKey) var layout = Grid(columns: 2)
    $layout.withLock { $0.columns = 4 }
    #expect(text(store.data(forKey: "layout")) == #"{"$version":2,"value":{"columns":4}}"#)
    #expect(runs.withLock { $0 } == 0)
  }

  @Test func aValueWrittenWithoutAVersionIsVersion1() async {
    let firstUse = WeakReferences()
    do {
      @Shared(.appStorage("layout")) var old = GridV1(isCompact: false)
      firstUse.append(rootOf: $old)
      $old.withLock { $0.isCompact = true }
    }
    // NB: A save the throttle holds keeps the reference: that of a change made less than a
    //     throttle interval after the default value's write was synchronised.
    await expectEventually("the first use's reference released") { firstUse.aliveCount == 0 }
    @Shared(layoutKey) var layout = Grid(columns: 2)
    #expect(layout == Grid(columns: 1))
  }

  /// A condition of the data, not a programmer error: no issue is reported.
  @Test func migratedValueThatCannotBeEncodedSetsSaveErrorAndLeavesTheStoredValueAlone() {
    let original = bytes(#"{"total":0,"count":0}"#)
    store.set(original, forKey: "average")
    @Shared(averageKey) var average = Average(value: 0)
    #expect(average.value.isNaN)
    #expect($average.loadError == nil)
    #expect($average.saveError is EncodingError)
    #expect(store.data(forKey: "average") == original)
  }

  @Test func playedBackOldVersionThatCannotBeEncodedSetsSaveError() {
    @Shared(averageKey) var average = Average(value: 1)
    #expect($average.saveError == nil)
    let original = bytes(#"{"total":0,"count":0}"#)
    store.set(original, forKey: "average")
    #expect(average.value.isNaN)
    #expect($average.saveError is EncodingError)
    #expect(store.data(forKey: "average") == original)
  }

  @Test func aFailedWriteBackSetsSaveError() throws {
    // NB: A store whose file would be inside '/dev/null': nothing can create it.
    let store = try #require(UserDefaults(suiteName: "/dev/null/\(UUID().uuidString)/store"))
    store.set(bytes(#"{"isCompact":true}"#), forKey: "layout")
    let key = AppStorageKey<Grid>.appStorage(
      "layout",
      version: 2,
      migrations: [.from(1, decoding: GridV1.self) { Grid(columns: $0.isCompact ? 1 : 3) }],
      store: store
    )
    @Shared(key) var layout = Grid(columns: 2)
    #expect(layout == Grid(columns: 1))
    #expect($layout.loadError == nil)
    let error = try #require($layout.saveError)
    #expect("\(error)".contains("/dev/null is not a folder"))
  }

  @Test func unreadableValueIsKeptBeforeBeingOverwritten() throws {
    let original = bytes(#"{"isCompact":"sometimes"}"#)
    store.set(original, forKey: "layout")
    @Shared(layoutKey) var layout = Grid(columns: 2)
    #expect(layout == Grid(columns: 2))
    let error = try #require($layout.loadError as? MigrationError)
    #expect(error.storedVersion == 1)
    #expect(error.failedVersion == 1)
    #expect(
      "\(error)".hasPrefix(
        """
        The value in the user defaults value "layout" is stored at version 1 and could not be \
        migrated to version 2: the migration from version 1 failed:
        """
      )
    )
    #expect(store.data(forKey: "layout") == original)
    $layout.withLock { $0.columns = 5 }
    let keptKeys = store.dictionaryRepresentation().keys.filter {
      $0.hasPrefix("layout.corrupt-")
    }
    #expect(keptKeys.count == 1)
    #expect(store.data(forKey: try #require(keptKeys.first)) == original)
    #expect(text(store.data(forKey: "layout")) == #"{"$version":2,"value":{"columns":5}}"#)
  }
}

struct GridV1: Codable, Equatable {
  var isCompact: Bool
}

struct Grid: Codable, Equatable {
  var columns: Int
}

/// A mean that a migration computes as NaN from an empty tally: JSON cannot encode it.
struct Average: Codable {
  var value: Double

  struct Tally: Codable {
    var total: Double
    var count: Double
  }
}
