import Testing

@testable import SharingPostgres

/// Whether the keys holding a row in a process agree on coordination: the rule `FileUses`
/// keeps for the keys of a file.
@Suite struct RowCoordinationTests {
  @Test func keysThatDisagreeAreReportedOnce() {
    let coordination = RowCoordination()
    #expect(!coordination.added(coordinated: true))
    #expect(coordination.added(coordinated: false))
    #expect(!coordination.added(coordinated: false))
  }

  /// A row stays in memory after its last key went away while a read, delivery or write of
  /// it is under way: a key created then is not held to the coordination of the keys gone.
  @Test func onceNoKeyHoldsTheRowALaterKeyMayUseItDifferently() {
    let coordination = RowCoordination()
    #expect(!coordination.added(coordinated: false))
    coordination.removed()
    #expect(!coordination.added(coordinated: true))
  }
}
