import Testing

@testable import SharingPersistence

/// When a key's playbacks of others' changes and its own saves overlap, the store is played
/// back once more, by the last of them to end; without an overlap, never.
@Suite struct PlaybackOverlapTests {
  enum Event {
    case saveBegan, saveEnded, playbackBegan, playbackEnded, loadBegan, loadEnded
  }

  /// Feeds `events` to a new overlap; returns, for each end, whether it plays back again.
  func replays(_ events: [Event]) -> [Bool] {
    var overlap = PlaybackOverlap()
    var replays: [Bool] = []
    for event in events {
      switch event {
      case .saveBegan: overlap.saveBegan()
      case .saveEnded: replays.append(overlap.saveEnded())
      case .playbackBegan: overlap.playbackBegan()
      case .playbackEnded: replays.append(overlap.playbackEnded())
      case .loadBegan: overlap.playbackBegan()
      case .loadEnded: replays.append(overlap.loadEnded())
      }
    }
    return replays
  }

  @Test func aSaveOrAPlaybackAloneIsNotPlayedBack() {
    #expect(replays([.saveBegan, .saveEnded]) == [false])
    #expect(replays([.playbackBegan, .playbackEnded]) == [false])
    #expect(replays([.saveBegan, .saveEnded, .playbackBegan, .playbackEnded]) == [false, false])
  }

  @Test func aLoadDuringASaveIsPlayedBackWhenTheSaveEnds() {
    #expect(replays([.saveBegan, .loadBegan, .loadEnded, .saveEnded]) == [false, true])
  }

  /// A load cannot hand over a second value: it asks for a playback, and is no longer counted,
  /// so that a later save is no overlap.
  @Test func aSaveDuringALoadIsPlayedBackWhenTheLoadEnds() {
    #expect(
      replays([.loadBegan, .saveBegan, .saveEnded, .loadEnded, .saveBegan, .saveEnded])
        == [false, true, false]
    )
  }

  @Test func aLoadAloneIsNotPlayedBack() {
    #expect(replays([.loadBegan, .loadEnded]) == [false])
  }

  @Test func aPlaybackDuringASaveIsPlayedBackWhenTheSaveEnds() {
    #expect(replays([.saveBegan, .playbackBegan, .playbackEnded, .saveEnded]) == [false, true])
  }

  /// The playback plays back once more, still counted as under way: that pass overlaps
  /// nothing, and ends it; a later save is no overlap.
  @Test func aSaveDuringAPlaybackIsPlayedBackByThePlaybackOnceMore() {
    #expect(
      replays([
        .playbackBegan, .saveBegan, .saveEnded, .playbackEnded, .playbackEnded, .saveBegan,
        .saveEnded,
      ]) == [false, true, false, false]
    )
  }

  @Test func theLastOfTwoPlaybacksPlaysBackOnce() {
    #expect(
      replays([
        .playbackBegan, .saveBegan, .playbackBegan, .saveEnded, .playbackEnded, .playbackEnded,
        .playbackEnded,
      ]) == [false, false, true, false]
    )
  }

  @Test func theLastOfTwoSavesPlaysBackOnce() {
    #expect(
      replays([
        .saveBegan, .saveBegan, .playbackBegan, .playbackEnded, .saveEnded, .saveEnded,
        .saveBegan, .saveEnded,
      ]) == [false, false, true, false]
    )
  }
}
