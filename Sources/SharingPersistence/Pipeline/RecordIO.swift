package import Foundation

/// What one store does for a ``Record``: read, write and watch one record of it. Every rule
/// of when to do so is ``RecordStateMachine``'s.
package protocol RecordIO: Sendable {
  /// What changes whenever the record's contents do: its bytes, a row version…
  associatedtype Stamp: Equatable & Sendable

  /// What the store holds now.
  ///
  /// - Throws: If it cannot be read: a file that is not readable, a server that is down.
  func read() throws -> StoredSnapshot<Stamp>

  /// Replaces what the store holds with `contents`, after keeping `undecodable` aside if
  /// given; returns the new stamp.
  func write(_ contents: Data, keepingAside undecodable: Data?) throws -> Stamp

  /// Calls `onChange` whenever someone may have changed the record, with its new stamp if
  /// the notice tells it, until the returned watch is stopped.
  func watch(_ onChange: @escaping @Sendable (Stamp?) -> Void) -> any RecordWatch

  /// Why a write was not made: the store could not be read before it (`cause`), or held a
  /// value the program never loaded, which was played back instead (`nil`).
  func refusal(cause: (any Error)?) -> any Error
}

extension RecordIO {
  /// `cause`, or an ``UnloadedValueError``.
  package func refusal(cause: (any Error)?) -> any Error {
    cause ?? UnloadedValueError()
  }
}

/// A watch started by ``RecordIO/watch(_:)``.
package protocol RecordWatch: Sendable {
  /// Whether every change is noticed now: only then does what is known of the store stay
  /// true while it is watched.
  var isLive: Bool { get }

  /// Ends the watch.
  func stop()
}

/// A store that can run one change of a record as a transaction, with every other writer,
/// in any process, locked out.
package protocol TransactionalRecordIO: RecordIO {
  /// Locks the record against every other writer, reads it, hands it to `change`, writes
  /// what `change` returns (nothing for `nil`), and unlocks.
  ///
  /// - Parameters:
  ///   - read: Told what was read, with the lock held.
  ///   - change: Returns the contents to write, or `nil` to leave the record as it is.
  /// - Returns: The stamp and contents written, if anything was.
  /// - Throws: ``TransactionOutcomeUnknown`` if the store may have written: its answer was
  ///   lost.
  func transaction(
    read: (Result<StoredSnapshot<Stamp>, any Error>) -> Void,
    _ change: (StoredSnapshot<Stamp>) throws -> Data?
  ) throws -> (stamp: Stamp, contents: Data)?
}

/// Thrown by ``TransactionalRecordIO/transaction(read:_:)`` when the store may have made the
/// change, its answer lost on the way (a connection cut after a commit was sent): the record
/// is read again and delivered, whatever it holds, and `error` becomes the change's error.
package struct TransactionOutcomeUnknown: Error {
  /// What went wrong, saying that the change may have been made.
  package let error: any Error

  package init(_ error: any Error) {
    self.error = error
  }
}
