import Foundation
import Testing

@testable import SharingPersistence

/// The keys of one file must agree on how they use it; one that does not is reported once.
@Suite struct FileUsesTests {
  let uses = FileUses()
  let url = URL(fileURLWithPath: "/data/count.json")

  @Test func twoThrottlesForOneFileAreReportedOnce() {
    #expect(uses.added(interval: .seconds(1), isCoordinated: false, of: url) == nil)
    #expect(uses.added(interval: .seconds(1), isCoordinated: false, of: url) == nil)
    #expect(
      uses.added(interval: .zero, isCoordinated: false, of: url)?.contains("two throttles") == true
    )
    #expect(uses.added(interval: .zero, isCoordinated: false, of: url) == nil)
  }

  @Test func aFileUsedWithAndWithoutCoordinationIsReportedOnce() {
    #expect(uses.added(interval: .seconds(1), isCoordinated: true, of: url) == nil)
    let mixed = uses.added(interval: .seconds(1), isCoordinated: false, of: url)
    #expect(mixed?.contains("'.coordinated'") == true)
    #expect(uses.added(interval: .seconds(1), isCoordinated: false, of: url) == nil)
  }

  @Test func coordinationMayChangeOnceNoKeyHoldsTheFile() {
    _ = uses.added(interval: .seconds(1), isCoordinated: true, of: url)
    uses.removed()
    #expect(uses.added(interval: .seconds(1), isCoordinated: false, of: url) == nil)
  }
}
