/// Whether a key's playbacks of other writers' changes, or its loads, overlapped its own saves,
/// which then leave the store and the shared value apart: a playback or a load reads the store
/// before a save stores, the save reads the shared value, and the read then hands the shared
/// value what it read, older than what the store holds once the save stored.
///
/// An overlap is played back once more, when the last of the saves and playbacks involved
/// ends: the store then holds the last word. A pure value; ``AppStorageKey`` feeds it, under
/// a lock of the key's own, and plays back when it says so.
struct PlaybackOverlap {
  private var saving = 0
  private var playing = 0
  private var overlapped = false

  /// A save is about to read the shared value.
  mutating func saveBegan() {
    if playing > 0 { overlapped = true }
    saving += 1
  }

  /// A save stored what it read; returns whether to play back the store once more.
  mutating func saveEnded() -> Bool {
    saving -= 1
    return takeOverlap(afterAll: 0)
  }

  /// A playback, or a load, is about to read the store.
  mutating func playbackBegan() {
    if saving > 0 { overlapped = true }
    playing += 1
  }

  /// A playback handed over what it read; returns whether to play back once more, the
  /// playback then still counted as under way.
  mutating func playbackEnded() -> Bool {
    if takeOverlap(afterAll: 1) { return true }
    playing -= 1
    return false
  }

  /// A load handed over what it read; returns whether to play back once more, the load no
  /// longer counted: it cannot hand over a second value.
  mutating func loadEnded() -> Bool {
    defer { playing -= 1 }
    return takeOverlap(afterAll: 1)
  }

  /// Whether an overlap is to be played back now: when `remaining` playbacks, the caller's
  /// own, and no save are under way.
  private mutating func takeOverlap(afterAll remaining: Int) -> Bool {
    guard overlapped, saving == 0, playing == remaining else { return false }
    overlapped = false
    return true
  }
}
