import SharingDependencies

/// Records by key behind one lock: the one shape of the package's registries of per-key
/// records (files of a storage, files with pending writes…).
///
/// A record is created on first use and stays until it is removed; ``use(_:creating:_:)``
/// and ``remove(_:where:)`` run their closures under the registry's lock, so that a record
/// cannot be removed between being found and being claimed.
package final class Registry<Key: Hashable & Sendable, Record: AnyObject & Sendable>: Sendable {
  private let records = Locked<[Key: Record]>([:])

  package init() {}

  /// The record for `key`, created by `create` if there is none, after `claim` ran on it
  /// under the registry's lock.
  package func use<Claimed>(
    _ key: Key,
    creating create: () -> Record,
    _ claim: (Record) -> Claimed
  ) -> (record: Record, claimed: Claimed) {
    records.withLock { records in
      if let record = records[key] { return (record, claim(record)) }
      let record = create()
      records[key] = record
      return (record, claim(record))
    }
  }

  /// Removes the record for `key` if it is `record` and `shouldRemove` agrees, under the
  /// registry's lock; returns whether it was removed.
  @discardableResult
  package func remove(
    _ key: Key,
    ifIdenticalTo record: Record,
    where shouldRemove: (Record) -> Bool = { _ in true }
  ) -> Bool {
    records.withLock { records in
      guard let existing = records[key], existing === record, shouldRemove(existing) else {
        return false
      }
      records[key] = nil
      return true
    }
  }

  /// Every record, at the time of the call.
  package var all: [Record] {
    records.withLock { Array($0.values) }
  }

  /// The number of records.
  package var count: Int {
    records.withLock(\.count)
  }
}
