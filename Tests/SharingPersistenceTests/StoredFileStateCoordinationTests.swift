import Foundation
import SharingCore
import Testing

@testable import SharingPersistence

/// The rules of one file for coordinated changes, as sequences of events.
@Suite struct StoredFileStateCoordinationTests {
  var file = StoredFileState(url: URL(fileURLWithPath: "/data/count.json"), interval: .seconds(1))
  let thread: UInt = 1

  @Test mutating func whatAChangeReadsIsNotPlayedBack() {
    _ = file.subscribed { _ in }
    file.readForChange(.success(bytes("9")))
    // NB: The change starts from those bytes; a check of the file then finds nothing new.
    #expect(file.fileRead(.success(bytes("9")), verifying: nil, thread: thread).isEmpty)
  }

  @Test mutating func aChangeWrittenWithNoPlaybackUnderWayIsNotPlayedBack() {
    _ = file.subscribed { _ in }
    #expect(file.changeWritten(bytes("10"), thread: thread).isEmpty)
    #expect(file.fileRead(.success(bytes("10")), verifying: nil, thread: thread).isEmpty)
  }

  /// A playback under way may carry older bytes to the shared values after the change
  /// reached them: the change's bytes are played back after it.
  @Test mutating func aChangeWrittenDuringAPlaybackIsPlayedBackAfterIt() {
    _ = file.subscribed { _ in }
    let playback = file.fileRead(.success(bytes("9")), verifying: nil, thread: 2)
    #expect(playback.count == 1)
    let effects = file.changeWritten(bytes("10"), thread: thread)
    guard case .playBack(.wait) = effects.first, effects.count == 1 else {
      Issue.record("Expected a playback waiting its turn, got \(effects)")
      return
    }
  }

  @Test mutating func aChangeWrittenForgetsBytesKeptForAside() {
    file.undecodable(bytes("{not json"))
    _ = file.changeWritten(bytes("1"), thread: thread)
    #expect(file.undecodable == nil)
  }

  @Test mutating func aFileUsedWithAndWithoutCoordinationIsReportedOnce() {
    #expect(file.holderAdded(interval: .seconds(1), isCoordinated: true).isEmpty)
    let mixed = file.holderAdded(interval: .seconds(1), isCoordinated: false)
    guard case .report(let message) = mixed.first else {
      Issue.record("Expected a report, got \(mixed)")
      return
    }
    #expect(message.contains("'.coordinated'"))
    #expect(file.holderAdded(interval: .seconds(1), isCoordinated: false).isEmpty)
  }

  @Test mutating func coordinationMayChangeOnceNoKeyHoldsTheFile() {
    _ = file.holderAdded(interval: .seconds(1), isCoordinated: true)
    _ = file.holderRemoved()
    #expect(file.holderAdded(interval: .seconds(1), isCoordinated: false).isEmpty)
  }
}
