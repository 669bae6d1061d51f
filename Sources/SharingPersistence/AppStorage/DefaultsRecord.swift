import Foundation
import SharingCore
import SharingDependencies

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

/// A key's hold on the record of its user defaults store: the record stays while something
/// holds it, a write is pending, or a key is subscribed.
///
/// One record serves every store object of a property list file (the store objects of one
/// suite share their contents in Foundation), or each store object where Foundation keeps
/// stores some other way.
typealias DefaultsHolder = RecordHolder<DefaultsIO>

extension RecordHolder where IO == DefaultsIO {
  /// A hold on the record of `store`, made if the store has none.
  convenience init(_ store: UserDefaultsBox) {
    let file = DefaultsFile.of(store.base)
    let id = file.map { DefaultsRecordID.file($0.path) } ?? .object(ObjectIdentifier(store.base))
    let (record, _) = DefaultsRecordID.records.use(id, creating: { id.record(store, file) }) {
      $0.holderAdded()
    }
    self.init(record: record)
  }
}

/// What a user defaults store's record is kept under: its file, or its object.
private enum DefaultsRecordID: Hashable, Sendable {
  case file(String)
  case object(ObjectIdentifier)

  static let records = Registry<Self, DefaultsRecord>()

  /// The record of `store`, after checking its file before anything can write it: unreadable
  /// bytes are kept aside, and make every key's load fail.
  func record(_ store: UserDefaultsBox, _ file: DefaultsFile?) -> DefaultsRecord {
    let io = DefaultsIO(keys: DefaultsKeys(store: store), file: file)
    if let file { DefaultsSynchronizer.shared.open(file, keys: io.keys) }
    _ = io.isUnreadable(Result { try file?.contents() })
    return DefaultsRecord(
      io: io,
      machine: RecordStateMachine(interval: DefaultsRecord.interval, mergesWrites: true),
      scheduler: DispatchWriteScheduler.shared,
      pendingWrites: .shared,
      schedulesPlayback: true
    ) { [self] record in
      guard Self.records.remove(self, ifIdenticalTo: record, where: { $0.confirmRelease() })
      else { return }
      if let file { DefaultsSynchronizer.shared.close(file, keys: io.keys) }
    }
  }
}
