import Foundation
import SharingDependencies
import SharingPersistence

/// The record of one key's row, shared by every key of that name in a database.
typealias RowRecord = Record<RowIO>

/// What a row does for its ``Record``: fetches, upserts, locked transactions, and the
/// notifications of its changes. A row's stamp is its version: a notification of the version
/// the program wrote or read is its own.
struct RowIO: TransactionalRecordIO {
  let key: String
  let backend: any PostgresBackend
  /// Where the table's notifications come from.
  let listener: TableListener
  /// Whether the keys holding the row are coordinated.
  let coordination: RowCoordination

  func read() throws -> StoredSnapshot<Int64> {
    let row = try backend.fetch(key)
    return StoredSnapshot(stamp: row?.version, contents: row?.json)
  }

  func write(_ contents: Data, keepingAside undecodable: Data?) throws -> Int64 {
    try backend.write(key, json: contents, keepsAside: undecodable != nil)
  }

  func watch(_ onChange: @escaping @Sendable (Int64?) -> Void) -> any RecordWatch {
    listener.watch(key, onChange)
  }

  /// The cause, or why a row this program never loaded was loaded rather than overwritten.
  func refusal(cause: (any Error)?) -> any Error {
    cause
      ?? PostgresError(
        """
        The row of '\(key)' holds a value this program had not loaded (the server could not \
        be reached when it loaded it): the row was loaded instead of being overwritten. \
        Change the value again to write it.
        """
      )
  }

  /// Locks the row (inserting it if it is missing), hands it to `change`, and writes what
  /// `change` returns, in one transaction.
  func transaction(
    read: (Result<StoredSnapshot<Int64>, any Error>) -> Void,
    _ change: (StoredSnapshot<Int64>) throws -> Data?
  ) throws -> (stamp: Int64, contents: Data)? {
    var written: Data?
    let version = try backend.transaction(key, inserting: Data("null".utf8)) { row, inserted in
      let snapshot =
        inserted
        ? StoredSnapshot<Int64>(stamp: nil, contents: nil)
        : StoredSnapshot(stamp: row.version, contents: row.json)
      read(.success(snapshot))
      let contents = try change(snapshot) ?? row.json
      written = contents
      return contents
    }
    return written.map { (version, $0) }
  }
}

/// Whether the keys holding a row in a process are coordinated: they must all be, or none.
final class RowCoordination: Sendable {
  private struct State {
    var holders = 0
    var isCoordinated: Bool?
    var hasReportedMix = false
  }

  private let state = Locked(State())

  /// A key of the row was created; returns whether to report, once, that it disagrees with
  /// the keys holding the row.
  func added(coordinated isCoordinated: Bool) -> Bool {
    state.withLock { state in
      state.holders += 1
      guard let existing = state.isCoordinated, existing != isCoordinated else {
        state.isCoordinated = isCoordinated
        return false
      }
      defer { state.hasReportedMix = true }
      return !state.hasReportedMix
    }
  }

  /// A key of the row went away: once none is left, later keys may use it differently.
  func removed() {
    state.withLock { state in
      state.holders -= 1
      if state.holders == 0 { state.isCoordinated = nil }
    }
  }
}
