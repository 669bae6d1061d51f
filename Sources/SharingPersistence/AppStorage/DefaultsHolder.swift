import Foundation
import SharingCore
import SharingDependencies

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
