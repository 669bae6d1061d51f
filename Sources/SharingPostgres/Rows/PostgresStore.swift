import SharingDependencies
import SharingPersistence

/// The rows of one table of one database that this process uses, each kept while a key holds
/// it or it has a write to make, and the table's listening connection.
final class PostgresStore: Sendable {
  let backend: any PostgresBackend
  let scheduler: any WriteScheduler
  let throttle: Duration
  let pendingWrites: PendingWrites
  /// The rows this process keeps a record of: those a key holds, or with a write to make.
  let rows = Registry<String, RowRecord>()
  /// The table's listening connection; its state describes it in a test's failure message.
  let listener: TableListener

  init(
    backend: any PostgresBackend,
    scheduler: any WriteScheduler,
    throttle: Duration,
    pendingWrites: PendingWrites
  ) {
    self.backend = backend
    self.scheduler = scheduler
    self.throttle = throttle
    self.pendingWrites = pendingWrites
    let rows = self.rows
    self.listener = TableListener(backend: backend) { event in
      // Every row hears it, watched or not: a failed write of any of them waits for it.
      for row in rows.all {
        switch event {
        case .listening(let afterLoss): row.becameReachable(afterLoss: afterLoss)
        case .lost(let error): row.becameUnreachable(because: error)
        case .changed, .listened: break
        }
      }
    }
  }

  /// A hold on the row of `key`, shared by every key of that name; a key used both with and
  /// without ``PostgresCoordination/coordinated`` in one process is reported.
  func holder(for key: String, isCoordinated: Bool) -> RecordHolder<RowIO> {
    // NB: Held under the registry's lock, so that the row cannot be released between being
    //     found and being held.
    let (row, _) = rows.use(key, creating: { makeRow(key) }) { $0.holderAdded() }
    if row.io.coordination.added(coordinated: isCoordinated) {
      reportIssue(
        """
        The key '\(key)' is used both with and without '.coordinated'. Changes made without it \
        can overwrite coordinated ones, and coordinated changes are not played back to the \
        keys without it: give every use of the key the same coordination.
        """
      )
    }
    return RecordHolder(record: row) { row.io.coordination.removed() }
  }

  private func makeRow(_ key: String) -> RowRecord {
    RowRecord(
      io: RowIO(key: key, backend: backend, listener: listener, coordination: RowCoordination()),
      machine: RecordStateMachine(
        interval: throttle,
        writesQuietChangesAtOnce: false,
        retriesAfterDelay: true
      ),
      scheduler: scheduler,
      pendingWrites: pendingWrites,
      writeThread: .scheduled,
      verifiesWatchInBackground: backend is ServerBackend
    ) { [rows] row in
      rows.remove(key, ifIdenticalTo: row) { $0.confirmRelease() }
    }
  }
}
