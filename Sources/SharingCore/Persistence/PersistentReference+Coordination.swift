import SharingDependencies
import Synchronization

/// The transactions of a root persisted by a ``CoordinatedSharedKey``: one at a time in this
/// process, each run by the key's store.
final class Coordination<Value>: Sendable {
  let key: any CoordinatedSharedKey<Value>
  private let lock = Lock()
  /// The thread running a transaction, to tell a `withLock` nested in its body.
  private let owner = Atomic<UInt>(0)

  init(key: any CoordinatedSharedKey<Value>) {
    self.key = key
  }

  /// Whether `thread` is running a transaction: a write it makes now is nested in one.
  func isRunning(on thread: UInt) -> Bool {
    owner.load(ordering: .relaxed) == thread
  }

  /// Runs `body` as this process's only transaction, on the calling thread.
  func exclusively<R, E: Error>(on thread: UInt, _ body: () throws(E) -> R) throws(E) -> R {
    lock.lock()
    owner.store(thread, ordering: .relaxed)
    defer {
      owner.store(0, ordering: .relaxed)
      lock.unlock()
    }
    return try body()
  }

  /// Waits until a transaction another thread runs, if any, has stored its result: a value
  /// the store delivers meanwhile may be newer, and must not be overwritten by it.
  func waitForTransaction(on thread: UInt) {
    guard !isRunning(on: thread) else { return }
    lock.lock()
    lock.unlock()
  }
}

extension PersistentReference {
  /// The reference a ``Shared`` created from the key holds: a plain handle, or one whose
  /// writes are transactions of the key's store if the key is a ``CoordinatedSharedKey``.
  func makeHandle() -> SharedReference<Value> {
    guard coordination != nil else { return HandleReference(base: self) }
    return CoordinatedHandleReference(root: self)
  }

  /// A `withLock` through a coordinated key: run by the key's store as a transaction, which
  /// brings the value up to date with the store before `body` runs, and stores the result
  /// before memory is updated and observers are told, once. Nothing is saved afterwards.
  ///
  /// If the store fails, memory is left as it was and the error becomes ``saveError``; if it
  /// failed before running `body`, `body` runs on a copy of the value that is then dropped,
  /// for its result. If `body` throws, nothing changes and its error is rethrown.
  func transaction<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    // NB: Inside a test's assertion, a write describes the expected value: it goes to the
    //     snapshot, as any other write does, and never to the store.
    guard let coordination, SharedTracking.asserting == nil else { return try withLock(body) }
    let thread = currentThreadID()
    guard !coordination.isRunning(on: thread) else { return try nestedTransaction(body) }
    return try coordination.exclusively(on: thread) { () throws(E) -> R in
      var value = readUntracked()
      var result: R?
      var bodyError: E?
      do {
        try coordination.key.withTransaction(&value) { (stored: inout Value) in
          do throws(E) {
            result = try body(&stored)
          } catch {
            bodyError = error
            throw error
          }
        }
      } catch {
        if let bodyError { throw bodyError }
        finishSave(.failure(error))
        if let result { return result }
        var dropped = readUntracked()
        return try body(&dropped)
      }
      // NB: From the store: the transaction already stored it.
      write(from: .store) { $0 = value }
      finishSave(.success(()))
      if let result { return result }
      reportIssue(
        """
        \(description) returned from 'withTransaction' without calling its body: the change \
        was not made.
        """
      )
      var dropped = readUntracked()
      return try body(&dropped)
    }
  }

  /// A `withLock` from inside a transaction's body on this same value: a programming error,
  /// reported, and applied to a copy that is dropped, as for any nested `withLock`.
  @inline(never)
  private func nestedTransaction<R, E: Error>(
    _ body: (inout Value) throws(E) -> R
  ) throws(E) -> R {
    reportIssue(
      """
      'withLock' was called on \(description) from inside its own 'withLock'. The inner \
      change is discarded: make it through the outer body's 'inout' value instead.
      """
    )
    var copy = readUntracked()
    return try body(&copy)
  }
}

/// The reference a ``Shared`` created from a ``CoordinatedSharedKey`` holds: it forwards to
/// the key's root, whose every write it makes a transaction of the key's store. Values
/// derived from it (`$state.member`, elements, unwrapped optionals) write through it.
final class CoordinatedHandleReference<Value: Sendable>: ForwardingReference<Value, Value>,
  @unchecked Sendable
{
  // NB: Unchecked: immutable, and the root is 'Sendable'.
  private let root: PersistentReference<Value>

  init(root: PersistentReference<Value>) {
    self.root = root
    super.init(base: root)
  }

  override func read() -> Value { root.read() }

  override func modify(_ body: (inout Value) -> Bool) {
    // NB: A body that threw aborts the transaction: nothing changes, in the store or in memory.
    try? root.transaction { (value: inout Value) throws(BodyThrew) in
      if !body(&value) { throw BodyThrew() }
    }
  }

  override func readMember<Member>(at offset: Int, as type: Member.Type) -> Member {
    root.readMember(at: offset, as: type)
  }

  // NB: Through this handle's transaction: a plain handle forwards member writes to its base.
  override func modifyBytes(at offset: Int, _ body: (UnsafeMutableRawPointer) -> Bool) {
    modify { value in
      withUnsafeMutablePointer(to: &value) { body(UnsafeMutableRawPointer($0) + offset) }
    }
  }

  /// Ends a transaction whose `withLock` body threw, which ``Shared/withLock(_:)`` rethrows.
  private struct BodyThrew: Error {}

  override var description: String { root.description }

  override var identity: ObjectIdentifier { root.identity }
}
