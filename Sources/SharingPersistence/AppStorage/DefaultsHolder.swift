import Foundation
import SharingCore
import SharingDependencies

/// A hold on the record of a user defaults store: the record stays while something holds
/// it, a write is pending, or a key is subscribed.
///
/// One record serves every store object of a property list file (the store objects of one
/// suite share their contents in Foundation), or each store object where Foundation keeps
/// stores some other way.
final class DefaultsHolder: Sendable {
  let record: DefaultsRecord
  /// Whether the holding key's playbacks overlapped its saves.
  let overlap = Locked(PlaybackOverlap())

  init(_ store: UserDefaultsBox) {
    let file = DefaultsFile.of(store.base)
    let id = file.map { ID.file($0.path) } ?? .object(ObjectIdentifier(store.base))
    record =
      Self.records.use(id, creating: { Self.makeRecord(id, store, file) }) {
        $0.holderAdded()
      }.record
  }

  deinit {
    record.holderRemoved()
  }

  private enum ID: Hashable, Sendable {
    case file(String)
    case object(ObjectIdentifier)
  }

  private static let records = Registry<ID, DefaultsRecord>()

  /// The record of `store`, after checking its file before anything can write it: unreadable
  /// bytes are kept aside, and make every key's load fail.
  private static func makeRecord(
    _ id: ID,
    _ store: UserDefaultsBox,
    _ file: DefaultsFile?
  ) -> DefaultsRecord {
    let io = DefaultsIO(keys: DefaultsKeys(store: store), file: file)
    if let file { DefaultsSynchronizer.shared.open(file, keys: io.keys) }
    _ = io.isUnreadable(Result { try file?.contents() })
    return DefaultsRecord(
      io: io,
      machine: RecordStateMachine(interval: DefaultsRecord.interval, mergesWrites: true),
      scheduler: DispatchWriteScheduler.shared,
      pendingWrites: .shared,
      schedulesPlayback: true
    ) { record in
      guard records.remove(id, ifIdenticalTo: record, where: { $0.confirmRelease() }) else {
        return
      }
      if let file { DefaultsSynchronizer.shared.close(file, keys: io.keys) }
    }
  }
}
