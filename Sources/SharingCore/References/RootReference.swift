import SharingDependencies
import Synchronization

/// The reference that holds a value: its lock, its observation and, for a value a key
/// persists, the key's ``Persistence`` part.
@usableFromInline
final class RootReference<Value>: SharedReference, SharedRoot, @unchecked Sendable {
  // Unchecked: 'value' is only accessed with 'lock' held, or re-entrantly by the thread that holds
  // it (recorded in 'owner'); everything else is atomic or immutable.
  private let lock = Lock()
  private let owner = Atomic<UInt>(0)
  @exclusivity(unchecked) private var value: Value
  /// Created at the first read: an observer can only register through a read, so writes to
  /// a value nobody has read skip observation entirely.
  private let center = Atomic<Unmanaged<ObservationCenter>?>(nil)
  /// How many writes the program has made to a persisted value, counted with the lock held:
  /// see ``write(fromStore:unlessWrittenSince:)``.
  let programWrites: ProgramWrites?
  /// What the key persisting the value does besides holding it.
  let persistence: (any Persistence<Value>)?

  init(value: Value, persistence: (any Persistence<Value>)? = nil) {
    self.value = value
    self.persistence = persistence
    self.programWrites = persistence == nil ? nil : ProgramWrites()
  }

  deinit {
    center.load(ordering: .acquiring)?.release()
  }

  @usableFromInline
  var root: any SharedRoot { self }

  @usableFromInline
  var anyPersistence: (any Persistence)? { persistence }

  // MARK: Reading

  @usableFromInline
  func read() -> Value {
    guard !SharedTracking.isActive else { return readWhileTracking() }
    observationCenter()._withUnsafeGuaranteedRef { $0.accessValue() }
    return withValueLock { value }
  }

  @inline(never)
  private func readWhileTracking() -> Value {
    if let snapshot = SharedTracking.asserting?.snapshot(of: self) { return snapshot }
    observationCenter()._withUnsafeGuaranteedRef { $0.accessValue() }
    return withValueLock { value }
  }

  @usableFromInline
  func readMember<Member>(at offset: Int, as type: Member.Type) -> Member {
    guard !SharedTracking.isActive else { return member(at: offset, of: read()) }
    observationCenter()._withUnsafeGuaranteedRef { $0.accessValue() }
    return withValueLock {
      withUnsafePointer(to: &value) { pointer in
        UnsafeRawPointer(pointer).load(fromByteOffset: offset, as: Member.self)
      }
    }
  }

  /// The current value, without recording an access or looking at snapshots.
  func readUntracked() -> Value {
    withValueLock { value }
  }

  /// The current value and the number of writes the program made to it, read together.
  func readUntrackedWithWriteCount() -> (Value, UInt64?) {
    withValueLock { (value, programWrites?.value) }
  }

  @inline(__always)
  private func withValueLock<R>(_ body: () -> R) -> R {
    if lock.tryLock() {
      defer { lock.unlock() }
      return body()
    }
    // NB: A 'withLock' body on this thread reads its own value: it already holds the lock.
    if owner.load(ordering: .relaxed) == currentThreadID() { return body() }
    return lock.withLock(body)
  }

  // MARK: Writing

  /// Where a write comes from: the program, or the store (which must not be saved back).
  enum WriteOrigin {
    case program
    case store
  }

  @usableFromInline
  func modify(_ body: (inout Value) -> Bool) {
    if persistence?.isCoordinated == true {
      persistence?.transaction(body)
    } else {
      write(from: .program, body)
    }
  }

  @usableFromInline
  func modifyMember<Member>(
    at offset: Int,
    as type: Member.Type,
    _ body: (inout Member) -> Bool
  ) {
    modify { withMember(at: offset, of: &$0, body) }
  }

  /// Writes the value, then tells observers and, for a write of the program, the key.
  @inline(__always)
  @discardableResult
  func write<R, E: Error>(
    from origin: WriteOrigin,
    _ body: (inout Value) throws(E) -> R
  ) throws(E) -> R {
    guard !SharedTracking.isActive else { return try writeWhileTracking(from: origin, body) }
    return try lockedWrite(from: origin, snapshottingFor: [], body)
  }

  @inline(never)
  private func writeWhileTracking<R, E: Error>(
    from origin: WriteOrigin,
    _ body: (inout Value) throws(E) -> R
  ) throws(E) -> R {
    if let asserting = SharedTracking.asserting {
      // Inside an assertion, writes describe the expected value: they go to the snapshot.
      return try asserting.mutateSnapshot(of: self, body)
    }
    return try lockedWrite(from: origin, snapshottingFor: SharedTracking.trackers, body)
  }

  @inline(__always)
  private func lockedWrite<R, E: Error>(
    from origin: WriteOrigin,
    snapshottingFor trackers: [ChangeTracker],
    _ body: (inout Value) throws(E) -> R
  ) throws(E) -> R {
    let thread = currentThreadID()
    if owner.load(ordering: .relaxed) == thread { return try nestedWrite(body) }
    // Observers are told of the write first, then the key.
    defer { if origin == .program { persistence?.didWrite() } }
    return try notifying({ $0.willSetValue() }, { $0.didSetValue() }) { () throws(E) -> R in
      lock.lock()
      owner.store(thread, ordering: .relaxed)
      defer {
        owner.store(0, ordering: .relaxed)
        lock.unlock()
      }
      if origin == .program { programWrites?.count() }
      for tracker in trackers { tracker.snapshotIfNeeded(self, value: value) }
      return try body(&value)
    }
  }

  /// Takes a value the store delivers, unless the program wrote the value since the store
  /// decided to deliver it, when ``programWrites`` was `mark` (`nil`: takes it anyway).
  ///
  /// A write made since is newer: the value keeps it, and its save writes it to the store,
  /// rather than reading the delivered value in its place. A write made before was known to
  /// the store when it decided, or was not yet saved, and is replaced, as a pending change is.
  func write(fromStore newValue: Value, unlessWrittenSince mark: UInt64?) {
    guard let mark, let programWrites else { return write(from: .store) { $0 = newValue } }
    // Checked first without the lock, so that observers are not told of a value left alone.
    guard programWrites.value == mark else { return }
    write(from: .store) { value in
      if programWrites.value == mark { value = newValue }
    }
  }

  /// A write from inside a `withLock` body on this same value: a programming error.
  ///
  /// It cannot be applied in place: the outer body holds the value `inout`, and the optimiser
  /// may keep it in registers and store it back over the inner change. So it is reported,
  /// and applied to a copy that is discarded.
  @inline(never)
  private func nestedWrite<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    reportNestedWithLock(on: keyDescription ?? "a shared value")
    var copy = value
    return try body(&copy)
  }

  // MARK: Observation

  @inline(__always)
  private func observationCenter() -> Unmanaged<ObservationCenter> {
    if let center = center.load(ordering: .acquiring) { return center }
    return makeObservationCenter()
  }

  @inline(never)
  private func makeObservationCenter() -> Unmanaged<ObservationCenter> {
    center.storeIfNil(ObservationCenter.init)
  }

  /// Runs `change`, telling the observation center before and after it; a center created
  /// during the change (by a read in it) is told both.
  @inline(__always)
  private func notifying<R, E: Error>(
    _ willSet: (ObservationCenter) -> Void,
    _ didSet: (ObservationCenter) -> Void,
    of change: () throws(E) -> R
  ) throws(E) -> R {
    let centerBefore = center.load(ordering: .acquiring)
    centerBefore?._withUnsafeGuaranteedRef(willSet)
    defer {
      let centerAfter = center.load(ordering: .acquiring)
      if centerBefore == nil, let centerAfter { centerAfter._withUnsafeGuaranteedRef(willSet) }
      centerAfter?._withUnsafeGuaranteedRef(didSet)
    }
    return try change()
  }

  @usableFromInline
  func notifyingObservers(of change: () -> Void) {
    notifying({ $0.willSetValue() }, { $0.didSetValue() }, of: change)
  }

  @usableFromInline
  func addObserver(_ onChange: @escaping @Sendable () -> Void) -> ObserverToken {
    observationCenter()._withUnsafeGuaranteedRef { $0.addObserver(onChange) }
  }

  /// Records an access to the persistence status (loading, errors), for observation.
  func accessStatus() {
    observationCenter()._withUnsafeGuaranteedRef { $0.accessStatus() }
  }

  /// Changes the persistence status, telling those who observe it.
  func notifyingStatusObservers(of change: () -> Void) {
    notifying({ $0.willSetStatus() }, { $0.didSetStatus() }, of: change)
  }

  /// The key the value is persisted with, as written at its call site; `nil` if it is not
  /// persisted.
  var keyDescription: String? { persistence?.keyDescription }

  @usableFromInline
  var description: String {
    keyDescription ?? "value: \(String(reflecting: readUntracked()))"
  }
}

/// Reports a `withLock` called from inside its own body on the same value, a programming error:
/// the inner change is discarded.
func reportNestedWithLock(on value: String) {
  reportIssue(
    """
    'withLock' was called on \(value) from inside its own 'withLock'. The inner change is \
    discarded: make it through the outer body's 'inout' value instead.
    """
  )
}

/// How many writes the program has made to a persisted value: a store reads it as it decides
/// to deliver a value, and the value takes the delivery only if no write came since
/// (``RootReference/write(fromStore:unlessWrittenSince:)``).
///
/// An object of its own, so that a store can read it at any time, under its own lock, without
/// holding the value, whose release there could call back into the store.
final class ProgramWrites: Sendable {
  private let counter = Atomic<UInt64>(0)

  /// The number of writes so far.
  var value: UInt64 { counter.load(ordering: .relaxed) }

  /// Counts a write. Called with the value's lock held, so by one thread at a time: a load
  /// and a store, not an atomic increment.
  func count() {
    counter.store(value &+ 1, ordering: .relaxed)
  }
}
