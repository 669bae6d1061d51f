import SharingDependencies
import Synchronization

/// A reference that holds a value: the storage of ``Shared/init(value:)``, and the base of
/// persisted references.
class RootReference<Value>: SharedReference<Value>, @unchecked Sendable {
  // NB: Unchecked: 'value' is only accessed with 'lock' held, or re-entrantly by the thread
  //     that holds it (recorded in 'owner'); everything else is atomic or immutable.

  /// Whether writes made by the program call ``didWrite()``, to be saved.
  // NB: First, so that it fills the padding after the base class's last field, a 'Bool':
  //     last, it made a root with an 'Int' value one malloc size class larger.
  let hasWriteHook: Bool
  private let lock = Lock()
  private let owner = Atomic<UInt>(0)
  @exclusivity(unchecked) private var value: Value
  private let center = Atomic<Unmanaged<ObservationCenter>?>(nil)

  init(value: Value, hasWriteHook: Bool = false) {
    self.value = value
    self.hasWriteHook = hasWriteHook
    super.init()
  }

  deinit {
    center.load(ordering: .acquiring)?.release()
  }

  // MARK: Reading

  override final func read() -> Value {
    // NB: Snapshots are looked up out of line: a 'Value?' here would make every read of a
    //     generic value look up the metadata of 'Optional<Value>' first.
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

  override final func readMember<Member>(at offset: Int, as type: Member.Type) -> Member {
    guard !SharedTracking.isActive else { return super.readMember(at: offset, as: type) }
    observationCenter()._withUnsafeGuaranteedRef { $0.accessValue() }
    return withValueLock {
      withUnsafePointer(to: &value) { pointer in
        UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Member.self)
          .pointee
      }
    }
  }

  /// The current value, without recording an access or looking at snapshots.
  final func readUntracked() -> Value {
    withValueLock { value }
  }

  @inline(__always)
  private func withValueLock<R>(_ body: () -> R) -> R {
    if lock.tryLock() {
      defer { lock.unlock() }
      return body()
    }
    // NB: A 'withLock' body on this thread reads its own value: it already holds the lock.
    if owner.load(ordering: .relaxed) == currentThreadID() { return body() }
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  // MARK: Writing

  /// Where a write comes from: the program, or the store (which must not be saved back).
  enum WriteOrigin {
    case program
    case store
  }

  override final func modify(_ body: (inout Value) -> Bool) {
    _ = write(from: .program, body)
  }

  // NB: Overridden to call 'write' directly: the inherited version goes through 'modify', a
  //     second dynamic call on every derived write.
  override final func modifyBytes(at offset: Int, _ body: (UnsafeMutableRawPointer) -> Bool) {
    _ = write(from: .program) { (value: inout Value) in
      withUnsafeMutablePointer(to: &value) { body(UnsafeMutableRawPointer($0) + offset) }
    }
  }

  // NB: Inlined into 'withLock', with tracking out of line, so that a write is one call
  //     deep: each generic, typed-throws call in between forwards the result and error
  //     indirectly.
  @inline(__always)
  final func write<R, E: Error>(
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
      // NB: Inside an assertion, writes describe the expected value: they go to the snapshot.
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
    let centerBefore = center.load(ordering: .acquiring)
    centerBefore?._withUnsafeGuaranteedRef { $0.willSetValue() }

    lock.lock()
    owner.store(thread, ordering: .relaxed)
    // NB: Unlocks, then notifies and saves, whether the body returns or throws. A 'defer'
    //     rather than a 'Result' of the body: a generic 'Result' costs a metadata lookup
    //     and an enum round trip on every write.
    defer { endWrite(from: origin, centerBefore: centerBefore) }
    if !trackers.isEmpty { snapshot(for: trackers) }
    return try body(&value)
  }

  /// Ends a write begun by ``lockedWrite(from:snapshottingFor:_:)``: unlocks, then notifies
  /// observers and saves.
  @inline(__always)
  private func endWrite(from origin: WriteOrigin, centerBefore: Unmanaged<ObservationCenter>?) {
    let centerAfter = center.load(ordering: .acquiring)
    owner.store(0, ordering: .relaxed)
    lock.unlock()

    if centerBefore == nil, let centerAfter {
      centerAfter._withUnsafeGuaranteedRef { $0.willSetValue() }
    }
    centerAfter?._withUnsafeGuaranteedRef { $0.didSetValue() }
    if hasWriteHook && origin == .program { didWrite() }
  }

  /// A write from inside a `withLock` body on this same value: a programming error.
  ///
  /// It cannot be applied in place: the outer body holds the value `inout`, and the optimiser
  /// may keep it in registers and store it back over the inner change. So it is reported,
  /// and applied to a copy that is discarded.
  @inline(never)
  private func nestedWrite<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    reportIssue(
      """
      'withLock' was called on \(keyDescription ?? "a shared value") from inside its own \
      'withLock'. The inner change is discarded: make it through the outer body's 'inout' \
      value instead.
      """
    )
    var copy = value
    return try body(&copy)
  }

  @inline(never)
  private func snapshot(for trackers: [ChangeTracker]) {
    for tracker in trackers { tracker.snapshotIfNeeded(self, value: value) }
  }

  /// Called after each write made by the program, outside the lock. Subclasses persist the
  /// value.
  func didWrite() {}

  // MARK: Observation

  @inline(__always)
  final func observationCenter() -> Unmanaged<ObservationCenter> {
    if let center = center.load(ordering: .acquiring) { return center }
    return makeObservationCenter()
  }

  /// The observation center, if the value or its status was ever read.
  final var existingObservationCenter: Unmanaged<ObservationCenter>? {
    center.load(ordering: .acquiring)
  }

  @inline(never)
  private func makeObservationCenter() -> Unmanaged<ObservationCenter> {
    center.storeIfNil(ObservationCenter.init)
  }

  override final func notifyingObservers(of change: () -> Void) {
    let center = existingObservationCenter
    center?._withUnsafeGuaranteedRef { $0.willSetValue() }
    change()
    center?._withUnsafeGuaranteedRef { $0.didSetValue() }
  }

  override final func addObserver(_ onChange: @escaping @Sendable () -> Void) -> ObserverToken {
    observationCenter()._withUnsafeGuaranteedRef { $0.addObserver(onChange) }
  }

  /// The key the value is persisted with, as written at its call site; `nil` if it is not
  /// persisted.
  var keyDescription: String? { nil }

  override var description: String {
    "value: \(String(reflecting: readUntracked()))"
  }
}
