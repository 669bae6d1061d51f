import Foundation
import SharingCore

/// The record of one user defaults store, shared by every key of the store and every object
/// of it: the keys' changes are set in the store at once, and the record writes the store to
/// its file and plays back others' changes.
typealias DefaultsRecord = Record<DefaultsIO>

extension Record where IO == DefaultsIO {
  /// The least time between two writes of a store's changes.
  static var interval: Duration { .milliseconds(50) }

  var keys: DefaultsKeys { io.keys }

  /// Makes a change of the store, `change`, which returns the key's subscriptions to tell
  /// (`nil`: it changed nothing); writes the store to its file, soon or at once with
  /// `urgency` ``WriteUrgency/immediate``; then tells them.
  ///
  /// A removal is written before this returns: until then, Foundation on Linux reads a
  /// removed key from the file.
  func change(
    urgency: WriteUrgency,
    isRemoval: Bool = false,
    continuation: SaveContinuation? = nil,
    _ change: (DefaultsKeys) -> [@Sendable () -> Void]?
  ) {
    guard let changed = change(keys) else { return }
    save(
      { Data() },
      urgency: isRemoval ? .immediate : urgency,
      interval: keys.interval(atLeast: Self.interval),
      continuation: continuation
    )
    if isRemoval { flushAndWait() }
    for onChange in changed { onChange() }
  }

  /// Someone else changed the store's file, to `read`: the store is brought up to date with
  /// it in a write of the record (synchronizing writes the store's own changes too), which
  /// tells every key the file changed.
  ///
  /// Every subscription is handed each change; the first asks for the write. A file the
  /// store was last synchronized with, whose changes were told then, is not read again.
  func played(_ read: Result<StoredSnapshot<Data>, any Error>) {
    guard !io.isUnreadable(read.map(\.contents)), case .success(let snapshot) = read,
      !keys.isSynchronized(to: snapshot.contents)
    else { return }
    change(urgency: .background) { _ in [] }
  }
}
