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

  /// Calls `onChange` whenever the value for `key` changes other than through `writer`, or
  /// the store's file can no longer be read, and `onRetry` with the outcome of writing a
  /// failed change again, until the returned closure is called.
  func subscribe(
    key: String,
    writer: ObjectIdentifier,
    onChange: @escaping @Sendable () -> Void,
    onRetry: @escaping @Sendable (Result<Void, any Error>) -> Void
  ) -> @Sendable () -> Void {
    let id = keys.subscribe(key: key, writer: writer, onChange: onChange)
    let stop = subscribe(
      Subscriber(
        onChange: { [weak self] read, _ in self?.played(read) },
        onRetry: onRetry
      )
    )
    return { [keys] in
      keys.unsubscribe(id)
      stop()
    }
  }

  /// Stores a property list value for `key` (`nil` removes it) through `writer`, tells the
  /// key's other subscriptions, and writes the store to its file: soon, or at once with
  /// `urgency` ``WriteUrgency/immediate``.
  ///
  /// A removal is written before this returns: until then, Foundation on Linux reads a
  /// removed key from the file.
  func store(
    _ object: Any?,
    forKey key: String,
    by writer: ObjectIdentifier,
    urgency: WriteUrgency,
    continuation: SaveContinuation? = nil
  ) {
    let changed = keys.store(object, forKey: key, by: writer)
    save(urgency: object == nil ? .immediate : urgency, isRemoval: object == nil, continuation)
    for onChange in changed { onChange() }
  }

  /// Stores `object` as the default value of `key`, which a load found without one, through
  /// `writer` — unless it has a value by now, which is returned — and writes it to the
  /// store's file soon, unless another process gives the key a value in the file first.
  func storeDefault(_ object: Any, forKey key: String, by writer: ObjectIdentifier) -> Any? {
    let (found, changed) = keys.storeDefault(object, forKey: key, by: writer)
    guard found == nil else { return found }
    save(urgency: .background, isRemoval: false, nil)
    for onChange in changed { onChange() }
    return nil
  }

  /// Makes a change of `key` directly through the store (`change`), tells the key's
  /// subscriptions, and writes the store to its file soon (a removal before this returns).
  func change(forKey key: String, isRemoval: Bool, by change: () -> Void) {
    let changed = keys.change(forKey: key, isRemoval: isRemoval, by: change)
    save(urgency: isRemoval ? .immediate : .background, isRemoval: isRemoval, nil)
    for onChange in changed { onChange() }
  }

  private func save(urgency: WriteUrgency, isRemoval: Bool, _ continuation: SaveContinuation?) {
    save(
      { Data() },
      urgency: urgency,
      interval: keys.interval(atLeast: Self.interval),
      continuation: continuation
    )
    if isRemoval { flushAndWait() }
  }

  /// Someone else changed the store's file, to `read`: the store is brought up to date with
  /// it in a write of the record (synchronizing writes the store's own changes too), which
  /// tells every key the file changed.
  ///
  /// Every subscription is handed each change; the first asks for the write. A file the
  /// store was last synchronized with, whose changes were told then, is not read again.
  private func played(_ read: Result<StoredSnapshot<Data>, any Error>) {
    if let error = DefaultsSynchronizer.shared.unreadable(io.file, read.map(\.contents)) {
      for onChange in keys.fileFailed(error) { onChange() }
    } else if case .success(let snapshot) = read, !keys.isSynchronized(to: snapshot.contents) {
      save(urgency: .background, isRemoval: false, nil)
    }
  }
}
