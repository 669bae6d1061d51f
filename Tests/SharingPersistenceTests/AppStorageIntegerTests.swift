import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import SharingTesting
import Testing

/// Integers come back from a property list as whatever width the reader chose: on Linux,
/// `Int.max` reads back as an `Int64`.
@Suite struct AppStorageIntegerTests {
  // NB: A store per case: cases run in parallel, and Foundation on Linux can lose a 'set'
  //     made while another thread synchronises the same store.
  @Test(.dependencies, arguments: [Int64.max, Int64.min, 0, -42])
  func integersOfAnyWidthReadAsInt(_ stored: Int64) {
    @Dependency(\.defaultAppStorage) var store
    let key = "int-\(stored)"
    store.set(stored, forKey: key)
    @Shared(.appStorage(key)) var value = 7
    #expect(value == Int(stored))
  }

  @Test func integersOfAnyWidthReadAsDouble() {
    @Dependency(\.defaultAppStorage) var store
    store.set(Int64(3), forKey: "ratio")
    @Shared(.appStorage("ratio")) var ratio = 0.5
    #expect(ratio == 3)
  }

  @Test func unsignedIntegerTooLargeForIntIsTheWrongType() {
    @Dependency(\.defaultAppStorage) var store
    store.set(UInt64.max, forKey: "huge")
    @Shared(.appStorage("huge")) var huge = 7
    #expect(huge == 7)
    #expect("\($huge.loadError.map { "\($0)" } ?? "")".contains(#""huge""#))
  }
}
