/// A ``SharedKey`` whose store runs each change as a transaction of its own, so that
/// ``Shared/withLock(_:)`` is exclusive across every process, and every machine, using the
/// store.
///
/// A plain ``SharedKey`` is handed each change after it is made in memory: two processes that
/// change one stored value at once each start from their own copy, and the last write wins.
/// A coordinated key closes that hole. Its ``withTransaction(_:_:)`` takes the store's
/// exclusive lock (a lock file, `BEGIN IMMEDIATE`, `SELECT … FOR UPDATE`), brings the value up
/// to date with the store, runs the change, and writes the result before releasing the lock:
///
/// ```swift
/// @Shared(.fileStorage(url, .coordinated)) var count = 0
/// $count.withLock { $0 += 1 }  // exact, whatever other processes do meanwhile
/// ```
///
/// ``Shared/withLock(_:)`` on a value persisted by a coordinated key, or on a value derived
/// from it (`$state.member`), takes an in-process lock, then calls ``withTransaction(_:_:)``
/// with the value in memory; once the transaction returns, memory holds the value it stored,
/// and observers (Observation, ``Shared/values``) are told once. Nothing is saved afterwards:
/// the transaction stored it.
///
/// > Important: Make ``SharedKey/save(_:context:continuation:)`` write nothing and resume its
/// > continuation. ``Shared/save()`` still calls it, with the value in memory, which may be
/// > older than a change another process stored since: writing it would replace that change.
///
/// A change made through a coordinated key costs a synchronous round trip to the store on
/// every ``Shared/withLock(_:)``: it is never throttled.
public protocol CoordinatedSharedKey<Value>: SharedKey {
  /// Runs one change of the value as a transaction of the store.
  ///
  /// Take the store's exclusive lock, replace `value` with the stored value if the store
  /// holds one this program has not seen yet, call `body` once, then store the changed value
  /// and release the lock before returning.
  ///
  /// > Important: Call `body` exactly once, unless the store fails first. If it throws, store
  /// > nothing and rethrow its error unchanged. If the store fails (before `body` is called,
  /// > or after), store nothing and throw: memory is left as it was, and your error is
  /// > exposed as ``Shared/saveError``. `withLock` still returns the result of its body,
  /// > which it then runs on a copy of the value in memory that is dropped. If the store
  /// > may have stored the change (its answer was lost), say so in the error, never store it
  /// > again, and deliver what the store holds to the key's subscribers once it can be read.
  ///
  /// - Parameters:
  ///   - value: The value in memory; on return, the value the store now holds.
  ///   - body: The change, run while the store is locked.
  /// - Throws: The error of `body`, or an error of the store.
  func withTransaction(_ value: inout Value, _ body: (inout Value) throws -> Void) throws
}

extension CoordinatedSharedKey {
  /// The key itself: its changes are transactions of its store.
  public var _coordinatedKey: (any CoordinatedSharedKey<Value>)? { self }
}
