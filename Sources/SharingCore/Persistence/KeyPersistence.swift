import Dispatch
import SharingDependencies

/// What a root persisted by a key has besides its value: the key, its load and save status,
/// its subscription, whose turn it is to save, and its transactions.
@usableFromInline
protocol Persistence<Value>: AnyObject, Sendable {
  associatedtype Value

  /// The key, as written at its call site.
  var keyDescription: String { get }
  var isLoading: Bool { get }
  var loadError: (any Error)? { get }
  var saveError: (any Error)? { get }
  func load() async throws
  func save() async throws

  /// Saves the value after a write of the program.
  func didWrite()

  /// Whether writes are transactions of the key's store, run by ``transaction(_:)``.
  var isCoordinated: Bool { get }

  /// Runs a write as a transaction of the key's store.
  func transaction(_ body: (inout Value) -> Bool)

  /// Saves through `saver` from now on, if the key the root was created with cannot save.
  func adopt<Saver: SharedKey<Value>>(saver: Saver)
}

/// The ``Persistence`` of a root kept in sync with a ``SharedReaderKey``: loaded when created,
/// updated by the key's subscription, and saved through the key after every change the
/// program makes.
final class KeyPersistence<Value: Sendable>: Persistence, @unchecked Sendable {
  // Unchecked: mutable state lives in 'state', behind its lock; 'root' and 'registration' are set
  // once, before the root is shared; the rest is immutable.
  /// The root, which holds this part for as long as it lives.
  private(set) unowned var root: RootReference<Value>!
  let key: any SharedReaderKey<Value>
  let initialValue: Value
  /// Whether writes are saved: not when the key's store keeps the root, which holds them.
  let savesWrites: Bool
  let coordination: Coordination<Value>?
  /// Where the root is registered, to unregister it when it goes away.
  private var registration: (registry: PersistentReferences, id: KeyID, root: ObjectIdentifier)?
  private let state: Locked<State>

  private struct State {
    var saver: (any SharedKey<Value>)?
    var subscription: SharedSubscription?
    var isLoading = false
    var loadError: (any Error)?
    var saveError: (any Error)?
    /// Who saves the value, and when.
    var turns = TurnClaim<DispatchSemaphore>()
  }

  /// A root persisted by `key`, starting from `initialValue`, and its part.
  ///
  /// - Parameters:
  ///   - saver: The key to save through; `nil` for a reader, which saves through `key` if it
  ///     can: the key instance that subscribed writes, so that it can tell its own writes
  ///     from others' (appStorage does).
  ///   - keepsReference: Whether the key's store keeps the root, holding every write.
  ///   - registry: Where the root is registered under `id`, if it is.
  static func root(
    persistedBy key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: Value,
    keepsReference: Bool,
    registeredIn registry: (PersistentReferences, id: KeyID)? = nil
  ) -> (root: RootReference<Value>, persistence: KeyPersistence) {
    let persistence = KeyPersistence(
      key: key,
      saver: saver ?? key as? any SharedKey<Value>,
      initialValue: initialValue,
      keepsReference: keepsReference
    )
    let root = RootReference(value: initialValue, persistence: persistence)
    persistence.root = root
    persistence.registration = registry.map { ($0, $1, ObjectIdentifier(root)) }
    return (root, persistence)
  }

  private init(
    key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: Value,
    keepsReference: Bool
  ) {
    self.key = key
    self.initialValue = initialValue
    self.savesWrites = !keepsReference
    self.coordination =
      keepsReference ? nil : saver?._coordinatedKey.map(Coordination.init(key:))
    self.state = Locked(State(saver: saver))
  }

  deinit {
    state.withLock { $0.subscription }?.cancel()
    if let registration {
      registration.registry.remove(registration.id, ifIdenticalTo: registration.root)
    }
  }

  var keyDescription: String { String(reflecting: key) }

  // MARK: Loading

  /// Loads the value (unless it is already known) and subscribes to the store.
  func start(loading: Bool) {
    if loading { loadValue(context: .initialValue(initialValue)) }
    // The subscriber's callbacks hold the root's part weakly ('whileAlive'): a subscriber the key
    // keeps must not keep the part, whose end cancels the subscription.
    let deliver = whileAlive { (persistence, delivery: (Result<Value?, any Error>, UInt64?)) in
      persistence.finishLoad(delivery.0, resetsToInitialValue: true, decidedAt: delivery.1)
    }
    let subscription = key.subscribe(
      context: .initialValue(initialValue),
      subscriber: SharedSubscriber(
        callback: { deliver(($0, $1)) },
        onLoading: whileAlive { persistence, isLoading in
          persistence.updateStatus { $0.isLoading = isLoading }
        },
        writeBack: whileAlive { $0.finishSave($1) },
        programWrites: { [programWrites = root.programWrites] in programWrites?.value ?? 0 }
      )
    )
    state.withLock { $0.subscription = subscription }
  }

  /// Loads the value from the store; a load that finds nothing keeps the current value.
  ///
  /// - Parameter completion: Called with the result, even if the root has gone away.
  private func loadValue(
    context: LoadContext<Value>,
    completion: @escaping @Sendable (Result<Value?, any Error>) -> Void = { _ in }
  ) {
    // Continuations are described by the key, not by 'self': a continuation a key keeps must not
    // keep the root's part, whose end cancels the subscription.
    let key = self.key
    // Counted before the key reads, not when it decides: a write made from then on stays, and
    // is saved after the load, which drops no pending change (a playback does, and counts
    // when it decides).
    let decidedAt = root.programWrites?.value
    let finishLoad = whileAlive {
      $0.finishLoad($1, resetsToInitialValue: false, decidedAt: decidedAt)
    }
    updateStatus { $0.isLoading = true }
    key.load(
      context: context,
      continuation: LoadContinuation(
        String(describing: key),
        writeBack: whileAlive { $0.finishSave($1) }
      ) { result in
        finishLoad(result)
        completion(result)
      }
    )
  }

  /// A callback for the key, which may call it on any thread, even as the root goes away: it
  /// calls `body` only while the root is alive, which keeps this part alive.
  private func whileAlive<T>(
    _ body: @escaping @Sendable (KeyPersistence, T) -> Void
  ) -> @Sendable (T) -> Void {
    { [weak root, unowned self] argument in
      guard let root else { return }
      withExtendedLifetime(root) { body(self, argument) }
    }
  }

  func adopt<Saver: SharedKey<Value>>(saver: Saver) {
    state.withLock { state in
      if state.saver == nil { state.saver = saver }
    }
  }

  /// Takes what the store delivers, decided when the program had made `decidedAt` writes to
  /// the value: a write made since stays (``RootReference/write(fromStore:unlessWrittenSince:)``).
  private func finishLoad(
    _ result: Result<Value?, any Error>,
    resetsToInitialValue: Bool,
    decidedAt: UInt64?
  ) {
    // A transaction's result, older than what the store delivers now, is stored first. One
    // that begins later starts from the store, so it is newer: its end delivers it again.
    coordination?.waitForTransaction(on: currentThreadID())
    switch result {
    case .success(let value?):
      root.write(fromStore: value, unlessWrittenSince: decidedAt)
    case .success(nil) where resetsToInitialValue:
      root.write(fromStore: initialValue, unlessWrittenSince: decidedAt)
    case .success(nil), .failure:
      break
    }
    updateStatus { state in
      state.isLoading = false
      state.loadError = result.failure
    }
  }

  /// Records how a save of the value went, in ``saveError``.
  func finishSave(_ result: Result<Void, any Error>) {
    updateStatus { state in
      state.saveError = result.failure
      // The store now holds the value in memory, so an error a subscriber reported about what the
      // store held before no longer applies.
      if result.failure == nil { state.loadError = nil }
    }
  }

  private func updateStatus(_ update: (inout State) -> Void) {
    root.notifyingStatusObservers { state.withLock(update) }
  }

  var isLoading: Bool { status { $0.isLoading } }
  var loadError: (any Error)? { status { $0.loadError } }
  var saveError: (any Error)? { status { $0.saveError } }

  // NB: A closure, not a key path: a key path of a generic type is built at every call.
  private func status<T>(_ read: (State) -> T) -> T {
    root.accessStatus()
    return state.withLock { read($0) }
  }

  func load() async throws {
    try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
      loadValue(context: .userInitiated) { waiter.resume(with: $0.map { _ in () }) }
    }
  }

  // MARK: Saving

  func didWrite() {
    guard savesWrites else { return }
    // One thread at a time hands values to the key, always reading the latest value, so the last
    // save the key sees carries the last write; 'TurnClaim' decides who. A thread told to wait
    // blocks until the turn in progress ends, so a save must not wait for a lock or a thread that
    // the writing thread may hold or be.
    let thread = currentThreadID()
    var saver: (any SharedKey<Value>)?
    let action = state.withLock { state -> TurnClaim<DispatchSemaphore>.ChangeAction in
      guard let current = state.saver else { return .none }
      saver = current
      return state.turns.changed(by: thread) { DispatchSemaphore(value: 0) }
    }
    switch action {
    case .none:
      return
    case .waitThenRun(let turn):
      turn.wait()
    case .run:
      break
    }
    TurnClaim<DispatchSemaphore>.runTurns(
      {
        // The continuation holds the root until the key finishes the write, so a shared value
        // created for the key meanwhile finds it and starts from the value being written, not from
        // the store's older one.
        let root: RootReference<Value> = self.root
        saver?.save(
          reading: { root.readUntracked() },
          context: .didSet,
          continuation: SaveContinuation(String(describing: self.key)) { result in
            withExtendedLifetime(root) { self.finishSave(result) }
          }
        )
      },
      finishing: {
        state.withLock { state in
          saver = state.saver
          return state.turns.turnFinished()
        }
      },
      handingOverTo: { $0.signal() }
    )
  }

  func save() async throws {
    // A store that keeps the root holds every write already: saving a copy would replace the root
    // in the store, and later writes would not reach it.
    guard savesWrites, let saver = state.withLock({ $0.saver }) else { return }
    let key = self.key
    let root: RootReference<Value> = self.root
    let finishSave = whileAlive { $0.finishSave($1) }
    // A write made after the key read the value may have been handed to the key before this save,
    // and replaced by this older value: the latest value must be saved last, so save again. A
    // write made before the read is in the value saved.
    let writesRead = Locked(root.programWrites?.value)
    defer {
      if root.programWrites?.value != writesRead.withLock({ $0 }) { didWrite() }
    }
    try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
      saver.save(
        reading: {
          let (value, writes) = root.readUntrackedWithWriteCount()
          writesRead.withLock { $0 = writes }
          return value
        },
        context: .userInitiated,
        continuation: SaveContinuation(String(describing: key)) { result in
          finishSave(result)
          waiter.resume(with: result)
        }
      )
    }
  }
}

extension Result {
  /// The error, if this is a failure.
  fileprivate var failure: Failure? {
    guard case .failure(let error) = self else { return nil }
    return error
  }
}
